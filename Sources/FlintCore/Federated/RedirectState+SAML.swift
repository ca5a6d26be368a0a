package import Crypto

extension RedirectState {
    /// The ID of the SAML AuthnRequest a sign-in sends, derived from the sealed state so nothing is stored: `_` and the
    /// hex of HMAC-SHA256(`key`, nonce). The callback opens the state and derives it again to check the response's
    /// `InResponseTo`; without the key nobody can make a state whose ID matches another sign-in's request.
    package func samlRequestID(key: SymmetricKey) -> String {
        "_" + Hex.encode(Array(HMAC<SHA256>.authenticationCode(for: Array(nonce.utf8), using: key)))
    }
}
