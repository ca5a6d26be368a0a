package import Crypto

/// The server's master secret (32 random bytes, generated on first start and persisted by the store) and
/// the purpose-bound keys derived from it with HKDF-SHA256.
package struct ServerSecret: Sendable {
    /// Key for code HMACs (`HMAC(codeKey, sessionID ‖ code)`).
    package let codeKey: SymmetricKey
    /// Key authenticating opaque session handles (`sessionInfo`, `temporaryProof`).
    package let sessionKey: SymmetricKey
    /// Key tagging refresh tokens, so a token can be recognised as ours without a database row.
    package let refreshKey: SymmetricKey
    /// Key sealing Flint's stateless MFA strings (`mfaPendingCredential`, TOTP enrollment `sessionInfo`) with AES-256-GCM.
    package let mfaKey: SymmetricKey
    /// Key for recovery code HMACs, so a stolen database reveals no code.
    package let recoveryKey: SymmetricKey
    /// Key sealing app-verification receipts, web-challenge tokens and puzzles, and deriving receipt secrets.
    package let appVerificationKey: SymmetricKey
    /// Key sealing federated sign-in's pending tokens.
    package let idpKey: SymmetricKey

    /// Derives the purpose keys from the master secret.
    package init(master: [UInt8]) {
        let ikm = SymmetricKey(data: master)
        codeKey = HKDF<SHA256>.deriveKey(inputKeyMaterial: ikm, info: Array("flint code hmac v1".utf8), outputByteCount: 32)
        sessionKey = HKDF<SHA256>.deriveKey(inputKeyMaterial: ikm, info: Array("flint session handle v1".utf8), outputByteCount: 32)
        refreshKey = HKDF<SHA256>.deriveKey(inputKeyMaterial: ikm, info: Array("flint refresh token v1".utf8), outputByteCount: 32)
        mfaKey = HKDF<SHA256>.deriveKey(inputKeyMaterial: ikm, info: Array("flint mfa v1".utf8), outputByteCount: 32)
        recoveryKey = HKDF<SHA256>.deriveKey(inputKeyMaterial: ikm, info: Array("flint recovery code v1".utf8), outputByteCount: 32)
        appVerificationKey = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: ikm, info: Array("flint app verification v1".utf8), outputByteCount: 32)
        idpKey = HKDF<SHA256>.deriveKey(inputKeyMaterial: ikm, info: Array("flint idp pending token v1".utf8), outputByteCount: 32)
    }

    /// The stored form of a code: HMAC-SHA256 over the session ID and the code, so equal codes in two
    /// sessions never share a hash and a stolen database reveals no code.
    package func codeHash(sessionID: [UInt8], code: String) -> [UInt8] {
        var mac = HMAC<SHA256>(key: codeKey)
        mac.update(data: sessionID)
        mac.update(data: Array(code.utf8))
        return Array(mac.finalize())
    }
}

extension ServerSecret: CustomStringConvertible {
    /// Nothing of the keys: values that hold the secret (flows, services) may be printed into logs.
    package var description: String { "ServerSecret(…)" }
}

extension ServerSecret {
    /// The 16-byte tag of a refresh token's body.
    package func refreshTokenTag(_ body: [UInt8]) -> [UInt8] {
        Array(Array(HMAC<SHA256>.authenticationCode(for: body, using: refreshKey)).prefix(16))
    }
}

/// SHA-256 of a bearer secret (refresh tokens), hex-encoded, as stored.
package func storedTokenHash(_ token: String) -> String {
    Hex.encode(SHA256.hash(data: Array(token.utf8)))
}
