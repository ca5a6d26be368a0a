import Crypto
package import CryptoExtras

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The public key of a service account, which checks the custom tokens it signs.
package struct ServiceAccountPublicKey: Sendable {
    /// The key.
    package let key: _RSA.Signing.PublicKey

    /// Reads an SPKI PEM public key (2048 bits or more).
    package init(pem: String) throws {
        key = try _RSA.Signing.PublicKey(pemRepresentation: pem)
    }

    /// Checks an RS256 (RSASSA-PKCS1-v1_5, SHA-256) signature.
    package func verify(signature: [UInt8], input: [UInt8]) -> Bool {
        key.isValidSignature(_RSA.Signing.RSASignature(rawRepresentation: signature), for: SHA256.hash(data: input), padding: .insecurePKCS1v1_5)
    }
}

/// A new service-account key pair and the Google-format service-account file that holds its private half, as
/// `flint admin service-accounts create` writes it: the Admin SDKs load it as a credential and sign custom tokens
/// with it (`kid` = `private_key_id`, `iss` = `sub` = `client_email`).
package struct ServiceAccountKey: Sendable {
    /// The operator's name for the account.
    package let name: String
    /// The project the file names.
    package let projectID: String
    /// `private_key_id`: 40 hex digits, as Google's.
    package let keyID: String
    /// `client_id`: 21 decimal digits, as Google's.
    package let clientID: String
    /// The private key, PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`).
    package let privateKeyPEM: String
    /// The public key, SPKI PEM, which Flint stores.
    package let publicKeyPEM: String

    /// `client_email`: `NAME@PROJECT.iam.gserviceaccount.com`.
    package var clientEmail: String { Self.clientEmail(name: name, projectID: projectID) }

    /// The client email of the account `name` of `projectID`.
    package static func clientEmail(name: String, projectID: String) -> String { "\(name)@\(projectID).iam.gserviceaccount.com" }

    /// Creates a 2048-bit key pair for the account `name`.
    package static func generate(name: String, projectID: String, random: some RandomSource) throws -> ServiceAccountKey {
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let digits = (0..<21).map { index in String(index == 0 ? 1 + random.uniform(below: 9) : random.uniform(below: 10)) }.joined()
        return ServiceAccountKey(
            name: name, projectID: projectID, keyID: Hex.encode(random.bytes(20)), clientID: digits, privateKeyPEM: key.pkcs8PEMRepresentation,
            publicKeyPEM: key.publicKey.pemRepresentation)
    }

    private init(name: String, projectID: String, keyID: String, clientID: String, privateKeyPEM: String, publicKeyPEM: String) {
        (self.name, self.projectID, self.keyID, self.clientID) = (name, projectID, keyID, clientID)
        (self.privateKeyPEM, self.publicKeyPEM) = (privateKeyPEM, publicKeyPEM)
    }

    /// The service-account file, with Google's fields in Google's order. `token_uri` and the other URLs are
    /// Google's: the Admin SDKs need them present, and only read `token_uri` when they fetch an OAuth2 access token
    /// (which custom tokens do not need).
    package var fileJSON: String {
        let email = clientEmail
        let fields: [(String, String)] = [
            ("type", "service_account"), ("project_id", projectID), ("private_key_id", keyID),
            ("private_key", privateKeyPEM.hasSuffix("\n") ? privateKeyPEM : privateKeyPEM + "\n"), ("client_email", email),
            ("client_id", clientID), ("auth_uri", "https://accounts.google.com/o/oauth2/auth"), ("token_uri", "https://oauth2.googleapis.com/token"),
            ("auth_provider_x509_cert_url", "https://www.googleapis.com/oauth2/v1/certs"),
            ("client_x509_cert_url", "https://www.googleapis.com/robot/v1/metadata/x509/" + email.replacing("@", with: "%40")),
            ("universe_domain", "googleapis.com"),
        ]
        let lines = fields.map { name, value in
            "  \"\(name)\": " + String(decoding: JSONValue.string(value).serialized(), as: UTF8.self)
        }
        return "{\n" + lines.joined(separator: ",\n") + "\n}\n"
    }
}

extension CustomToken {
    /// Signs a custom token as the Admin SDKs' `create_custom_token` does: header `{"alg":"RS256","kid":…,"typ":"JWT"}`,
    /// payload `iss` = `sub` = `clientEmail`, `aud`, `uid`, `iat` = `now`, `exp` = `now` + `lifetime`, and `claims`
    /// when given. For tests and tools; Flint itself only verifies.
    package static func sign(
        uid: String, claims: [String: JSONValue]? = nil, clientEmail: String, keyID: String, privateKeyPEM: String, now: Int64,
        lifetime: Int64 = maxLifetime.inSeconds, extra: [String: JSONValue] = [:]
    ) throws -> String {
        var payload: [String: JSONValue] = [
            "iss": .string(clientEmail), "sub": .string(clientEmail), "aud": .string(audience), "uid": .string(uid),
            "iat": .number(Double(now)), "exp": .number(Double(now + lifetime)),
        ]
        if let claims { payload["claims"] = .object(claims) }
        payload.merge(extra) { $1 }
        let header = JSONValue.object(["alg": "RS256", "kid": .string(keyID), "typ": "JWT"]).serialized()
        let input = Base64URL.encode(header) + "." + Base64URL.encode(JSONValue.object(payload).serialized())
        let key = try _RSA.Signing.PrivateKey(pemRepresentation: privateKeyPEM)
        let signature = try key.signature(for: SHA256.hash(data: Array(input.utf8)), padding: .insecurePKCS1v1_5)
        return input + "." + Base64URL.encode(signature.rawRepresentation)
    }

    /// An unsigned custom token (`alg: none`), as the Admin SDKs make them against the emulator.
    package static func unsigned(payload: [String: JSONValue]) -> String {
        Base64URL.encode(JSONValue.object(["alg": "none", "typ": "JWT"]).serialized()) + "."
            + Base64URL.encode(JSONValue.object(payload).serialized())
            + "."
    }
}
