public import Crypto

/// The provider authentication token of Apple's APNs HTTP/2 API ("token-based connection"): an ES256 JWT with
/// header `{"alg":"ES256","kid":<key ID>}` and claims `{"iss":<team ID>,"iat":<seconds>}`, signed with the `.p8`
/// key downloaded from the Apple Developer account.
public struct APNsProviderToken: Sendable {
    /// The key's 10-character ID (`kid`).
    public let keyID: String
    /// The developer team ID (`iss`).
    public let teamID: String
    private let key: P256.Signing.PrivateKey

    /// Why a key or its IDs were refused.
    public struct InvalidIdentifier: Error, Sendable {
        /// What is wrong.
        public let message: String
    }

    /// Reads a `.p8` key (PKCS#8 PEM).
    /// - Throws: ``InvalidIdentifier`` when an ID is not 1-32 ASCII letters and digits (Apple's are 10), or
    ///   `CryptoKitError` when the PEM is not a P-256 private key.
    public init(p8 pem: String, keyID: String, teamID: String) throws {
        for (name, value) in [("key ID", keyID), ("team ID", teamID)] {
            guard (1...32).contains(value.utf8.count),
                value.unicodeScalars.allSatisfy({ $0.isASCII && $0.properties.isAlphabetic || ("0"..."9").contains($0) })
            else { throw InvalidIdentifier(message: "the APNs \(name) must be letters and digits, like ABC123DEFG") }
        }
        self.key = try P256.Signing.PrivateKey(pemRepresentation: pem)
        self.keyID = keyID
        self.teamID = teamID
    }

    /// The key's public half (tests verify signatures with it).
    public var publicKey: P256.Signing.PublicKey { key.publicKey }

    /// A signed token issued at `issuedAt` (its `iat` in whole seconds). Apple accepts a token for an hour and asks providers
    /// not to make a new one more often than every 20 minutes.
    /// - Throws: `CryptoKitError` when signing fails.
    public func token(issuedAt: Instant) throws -> String {
        let header = #"{"alg":"ES256","kid":"\#(keyID)"}"#
        let claims = #"{"iss":"\#(teamID)","iat":\#(issuedAt.secondsSince1970)}"#
        let input = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(claims.utf8))
        let signature = try key.signature(for: Array(input.utf8))
        return input + "." + Base64URL.encode(signature.rawRepresentation)
    }
}
