import Crypto

/// The client secret Sign in with Apple's token and revocation endpoints take: a JWT the developer signs with the
/// private key Apple issued (a `.p8` file: PKCS #8 PEM of a P-256 key), ES256, with the key's ID in its header and
/// `iss` the team ID, `iat`/`exp`, `aud` Apple and `sub` the client ID (the services ID or the app's bundle ID).
package struct AppleClientSecret: Sendable {
    /// Apple's `aud`.
    package static let audience = "https://appleid.apple.com"
    /// How long a secret lives: one is made for each call, so a few minutes (Apple accepts at most six months).
    package static let lifetime: Duration = .seconds(300)

    /// The apple.com config's `appleSignInConfig.codeFlowConfig`: the team, the key's ID and its private key.
    package struct CodeFlowConfig: Sendable, Equatable {
        package var teamID: String
        package var keyID: String
        package var privateKeyPEM: String

        package init(teamID: String, keyID: String, privateKeyPEM: String) {
            (self.teamID, self.keyID, self.privateKeyPEM) = (teamID, keyID, privateKeyPEM)
        }

        /// The three fields of a stored `codeFlowConfig`, or `nil` when one is missing or empty.
        package init?(_ value: JSONValue?) {
            guard let teamID = value?["teamId"]?.stringValue, let keyID = value?["keyId"]?.stringValue,
                let key = value?["privateKey"]?.stringValue, !teamID.isEmpty, !keyID.isEmpty, !key.isEmpty
            else { return nil }
            self.init(teamID: teamID, keyID: keyID, privateKeyPEM: key)
        }
    }

    /// Why a secret could not be made.
    package struct Failure: Error, Equatable, Sendable {
        package let message: String
    }

    private let config: CodeFlowConfig
    private let key: P256.Signing.PrivateKey

    /// Reads the private key of `config`.
    /// - Throws: ``Failure`` when the key is not a P-256 private key in PEM (the `.p8` file's text).
    package init(config: CodeFlowConfig) throws(Failure) {
        self.config = config
        do { key = try P256.Signing.PrivateKey(pemRepresentation: config.privateKeyPEM) } catch {
            throw Failure(message: "The codeFlowConfig privateKey is not a P-256 private key in PEM (the .p8 file's text).")
        }
    }

    /// A secret for `clientID`, issued at `now`.
    /// - Throws: ``Failure`` when signing fails.
    package func secret(clientID: String, now: Instant) throws(Failure) -> String {
        let issued = now.secondsSince1970
        let header: JSONValue = ["alg": "ES256", "kid": .string(config.keyID), "typ": "JWT"]
        let claims: JSONValue = [
            "iss": .string(config.teamID), "iat": .number(Double(issued)), "exp": .number(Double(issued + Self.lifetime.inSeconds)),
            "aud": .string(Self.audience), "sub": .string(clientID),
        ]
        let input = Base64URL.encode(header.serialized()) + "." + Base64URL.encode(claims.serialized())
        do {
            let signature = try key.signature(for: Array(input.utf8))
            return input + "." + Base64URL.encode(Array(signature.rawRepresentation))
        } catch {
            throw Failure(message: "The client secret could not be signed.")
        }
    }
}
