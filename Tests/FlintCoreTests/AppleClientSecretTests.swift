import Crypto
import FlintCore
import Testing

@Suite("Sign in with Apple's client secret")
struct AppleClientSecretTests {
    let key = P256.Signing.PrivateKey()

    var config: AppleClientSecret.CodeFlowConfig {
        AppleClientSecret.CodeFlowConfig(teamID: "TEAM123456", keyID: "KEY7654321", privateKeyPEM: key.pemRepresentation)
    }

    @Test("an ES256 JWT with the key's ID, signed by the .p8 key, for the client ID, living five minutes")
    func shape() throws {
        let now = Instant(millisecondsSince1970: 1_700_000_000_500)
        let secret = try AppleClientSecret(config: config).secret(clientID: "com.example.app", now: now)
        let parts = secret.split(separator: ".").map(String.init)
        try #require(parts.count == 3)
        let header = try JSONValue(parsing: try #require(Base64URL.decode(parts[0])))
        let claims = try JSONValue(parsing: try #require(Base64URL.decode(parts[1])))
        #expect(header == ["alg": "ES256", "kid": "KEY7654321", "typ": "JWT"])
        #expect(
            claims == [
                "iss": "TEAM123456", "iat": .number(1_700_000_000), "exp": .number(1_700_000_300), "aud": "https://appleid.apple.com",
                "sub": "com.example.app",
            ])
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: try #require(Base64URL.decode(parts[2])))
        #expect(key.publicKey.isValidSignature(signature, for: Array((parts[0] + "." + parts[1]).utf8)))
    }

    @Test("the stored codeFlowConfig needs its three fields; a key that is not P-256 PEM is refused")
    func configuration() throws {
        let stored: JSONValue = ["teamId": "T", "keyId": "K", "privateKey": .string(key.pemRepresentation)]
        #expect(AppleClientSecret.CodeFlowConfig(stored)?.teamID == "T")
        #expect(AppleClientSecret.CodeFlowConfig(["teamId": "T", "keyId": "K"]) == nil)
        #expect(AppleClientSecret.CodeFlowConfig(["teamId": "", "keyId": "K", "privateKey": "p"]) == nil)
        #expect(AppleClientSecret.CodeFlowConfig(nil) == nil)
        let bad = AppleClientSecret.CodeFlowConfig(
            teamID: "T", keyID: "K", privateKeyPEM: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----")
        #expect(throws: AppleClientSecret.Failure.self) { try AppleClientSecret(config: bad) }
    }
}
