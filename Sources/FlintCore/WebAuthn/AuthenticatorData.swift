import Crypto

/// Authenticator data (WebAuthn §6.1): the RP ID hash, flags, signature counter, and — at registration — the
/// attested credential (AAGUID, credential ID, COSE public key).
package struct AuthenticatorData: Sendable {
    /// The credential an authenticator attests at registration.
    package struct AttestedCredential: Sendable {
        package var aaguid: [UInt8]
        package var credentialID: [UInt8]
        /// The COSE key exactly as the authenticator encoded it (stored, and parsed again at each sign-in).
        package var publicKeyBytes: [UInt8]
        package var publicKey: COSEKey
    }

    /// SHA-256 of the RP ID the credential is scoped to.
    package var rpIDHash: [UInt8]
    package var flags: UInt8
    package var signCount: UInt32
    package var attestedCredential: AttestedCredential?
    /// The bytes parsed, as signatures cover them.
    package var raw: [UInt8]

    /// User present (UP).
    package var userPresent: Bool { flags & 0x01 != 0 }
    /// User verified (UV).
    package var userVerified: Bool { flags & 0x04 != 0 }

    /// Longest credential ID accepted (WebAuthn Level 3 caps it at 1023 bytes).
    package static let maxCredentialIDLength = 1023

    /// Parses authenticator data.
    /// - Throws: ``WebAuthnError`` for truncated data, a credential flag without a credential (or the reverse),
    ///   an unreadable COSE key, or bytes left over that are not extensions.
    package init(_ bytes: [UInt8]) throws(WebAuthnError) {
        guard bytes.count >= 37 else { throw .invalid("authenticator data") }
        raw = bytes
        rpIDHash = Array(bytes[0..<32])
        flags = bytes[32]
        signCount = bytes[33..<37].reduce(0) { $0 << 8 | UInt32($1) }
        var position = 37
        if flags & 0x40 != 0 {
            guard bytes.count >= position + 18 else { throw .invalid("attested credential data") }
            let aaguid = Array(bytes[position..<position + 16])
            let length = Int(bytes[position + 16]) << 8 | Int(bytes[position + 17])
            position += 18
            guard length > 0, length <= Self.maxCredentialIDLength, bytes.count >= position + length else { throw .invalid("credential ID") }
            let credentialID = Array(bytes[position..<position + length])
            position += length
            var decoder = CBORDecoder(Array(bytes[position...]))
            let item: CBOR
            do { item = try decoder.next() } catch { throw .invalid("credential public key (\(error.reason))") }
            let keyBytes = Array(bytes[position..<position + decoder.position])
            position += decoder.position
            attestedCredential = AttestedCredential(
                aaguid: aaguid, credentialID: credentialID, publicKeyBytes: keyBytes, publicKey: try COSEKey(item))
        } else {
            attestedCredential = nil
        }
        if flags & 0x80 != 0 {
            do {
                var decoder = CBORDecoder(Array(bytes[position...]))
                guard case .map = try decoder.next() else { throw WebAuthnError.invalid("extensions") }
                position += decoder.position
            } catch {
                throw .invalid("extensions")
            }
        }
        guard position == bytes.count else { throw .invalid("authenticator data (trailing bytes)") }
    }

    /// Checks the RP ID and the flags every ceremony of Flint's requires: user present and user verified.
    package func check(rpID: String) throws(WebAuthnError) {
        guard rpIDHash == Array(SHA256.hash(data: Array(rpID.utf8))) else { throw .invalid("RP ID hash") }
        guard userPresent else { throw .invalid("flags: user not present") }
        guard userVerified else { throw .invalid("flags: user not verified") }
    }
}
