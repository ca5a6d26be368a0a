package import Crypto

/// The client secret Sign in with Apple's token endpoint takes: an ES256 JWT the app's team signs with its Sign in with
/// Apple key (`appleSignInConfig.codeFlowConfig`: `teamId`, `keyId`, `privateKey` as PKCS#8 PEM), with claims
/// `iss` (team), `iat`, `exp`, `aud` (`https://appleid.apple.com`) and `sub` (the services ID, the client ID). Made
/// fresh for each exchange, valid for ``lifetime``.
package struct AppleClientSecret: Sendable {
    /// How long one secret is valid (Apple allows up to six months).
    package static let lifetime: Duration = .seconds(300)

    package let teamID: String
    package let keyID: String
    package let clientID: String
    private let key: P256.Signing.PrivateKey

    /// Reads the code-flow settings; `nil` when one is missing or the key is not a P-256 private key.
    package init?(codeFlowConfig: [String: JSONValue], clientID: String) {
        guard let team = codeFlowConfig["teamId"]?.stringValue, !team.isEmpty, let kid = codeFlowConfig["keyId"]?.stringValue, !kid.isEmpty,
            let pem = codeFlowConfig["privateKey"]?.stringValue, let key = try? P256.Signing.PrivateKey(pemRepresentation: pem)
        else { return nil }
        (teamID, keyID, self.clientID, self.key) = (team, kid, clientID, key)
    }

    /// The key's public half (tests verify signatures with it).
    package var publicKey: P256.Signing.PublicKey { key.publicKey }

    /// A secret issued at `now`.
    /// - Throws: `CryptoKitError` when signing fails.
    package func token(now: Instant) throws -> String {
        let header: JSONValue = ["alg": "ES256", "kid": .string(keyID)]
        let issued = now.secondsSince1970
        let claims: JSONValue = [
            "iss": .string(teamID), "iat": .number(Double(issued)), "exp": .number(Double(issued + Self.lifetime.components.seconds)),
            "aud": "https://appleid.apple.com", "sub": .string(clientID),
        ]
        let input = Base64URL.encode(header.serialized()) + "." + Base64URL.encode(claims.serialized())
        return input + "." + Base64URL.encode(try key.signature(for: Array(input.utf8)).rawRepresentation)
    }
}
