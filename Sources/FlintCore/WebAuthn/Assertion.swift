/// A sign-in's `authenticatorAuthenticationResponse` (WebAuthn §7.2), verified against the stored credential.
package enum Assertion {
    /// Verifies an assertion's signature, RP ID, flags and counter.
    /// - Parameters:
    ///   - authenticatorData: the raw authenticator data.
    ///   - clientDataHash: SHA-256 of `clientDataJSON`.
    ///   - signature: the authenticator's signature over both.
    ///   - key: the stored credential key.
    ///   - rpID: the RP ID the credential was enrolled for.
    ///   - storedSignCount: the counter last seen.
    /// - Returns: the new counter value to store.
    /// - Throws: ``WebAuthnError``; ``WebAuthnError/counterRegressed`` when either counter is non-zero and the new one
    ///   is not greater than the stored one.
    package static func verify(
        authenticatorData: [UInt8], clientDataHash: [UInt8], signature: [UInt8], key: COSEKey, rpID: String, storedSignCount: UInt32
    ) throws(WebAuthnError) -> UInt32 {
        let data = try AuthenticatorData(authenticatorData)
        try data.check(rpID: rpID)
        guard key.verifies(signature, over: authenticatorData + clientDataHash) else { throw .invalid("signature") }
        if data.signCount != 0 || storedSignCount != 0, data.signCount <= storedSignCount { throw .counterRegressed }
        return data.signCount
    }
}
