import Crypto

/// How an ID token's `nonce` claim must relate to the raw nonce the app sent in `postBody`.
package enum ProviderNonceRule: Sendable, Equatable {
    /// Sign in with Apple: the token carries the SHA-256 hex of the raw nonce; a token with a nonce needs the
    /// raw nonce in the request.
    case appleHashed
    /// Other OIDC providers: when the request names a nonce, the token carries it or its SHA-256 hex; a token with a
    /// nonce needs the raw nonce in the request.
    case required
    /// Google Sign-In: its SDK may put a nonce of its own in the token, so it is compared only when the request names
    /// one (the raw value or its SHA-256 hex).
    case whenSent

    /// The lower-case hex SHA-256 of `raw`, as Apple's tokens carry the app's nonce.
    package static func sha256Hex(_ raw: String) -> String {
        Hex.encode(Array(SHA256.hash(data: Array(raw.utf8))))
    }

    /// Checks the token's `nonce` claim against the request's raw nonce.
    /// - Throws: ``ProviderTokenError`` `MISSING_OR_INVALID_NONCE`.
    package func check(claim: String?, raw: String?) throws(ProviderTokenError) {
        let raw = raw.flatMap { $0.isEmpty ? nil : $0 }
        switch (claim, raw) {
        case (nil, nil):
            return
        case (.some, nil):
            if self == .whenSent { return }
            throw .nonce("Nonce is missing in the request.")
        case (nil, .some):
            throw .nonce("The ID Token has no nonce, but the request has one.")
        case (.some(let claim), .some(let raw)):
            let hashed = Self.sha256Hex(raw)
            let matches = self == .appleHashed ? claim == hashed : claim == raw || claim == hashed
            guard matches else {
                throw .nonce("The nonce in ID Token does not match the SHA256 hash of the raw nonce in the request.")
            }
        }
    }
}
