import FlintCore
import Foundation
import Testing

/// One service-account key for the suite (2048-bit generation is slow in debug builds).
let suiteServiceAccount: ServiceAccountKey = {
    do { return try ServiceAccountKey.generate(name: "backend", projectID: "demo-flint", random: SystemRandom()) } catch {
        preconditionFailure("key generation failed: \(error)")
    }
}()

@Suite("Custom tokens: parsing, signatures, time and claims")
struct CustomTokenTests {
    let account = suiteServiceAccount
    let now: Int64 = 1_700_000_000

    func signed(
        uid: String = "user-1", claims: [String: JSONValue]? = nil, at: Int64? = nil, lifetime: Int64 = 3600, extra: [String: JSONValue] = [:]
    )
        throws -> String
    {
        try CustomToken.sign(
            uid: uid, claims: claims, clientEmail: account.clientEmail, keyID: account.keyID, privateKeyPEM: account.privateKeyPEM,
            now: at ?? now, lifetime: lifetime, extra: extra)
    }

    func code(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch let error as AuthError {
            return error.code
        } catch {
            return "\(error)"
        }
    }

    @Test("a token signed as the Admin SDKs sign one verifies with the account's public key, and its claims read back")
    func roundTrip() throws {
        let token = try CustomToken(parsing: try signed(claims: ["premium": true, "level": .number(3)]))
        #expect(token.signature == .rs256(keyID: account.keyID))
        #expect(token.issuer == account.clientEmail)
        #expect(token.verify(with: try ServiceAccountPublicKey(pem: account.publicKeyPEM)))
        try token.checkSigned(now: Instant(secondsSince1970: now + 10))
        let claims = try token.claims()
        #expect(claims.uid == "user-1")
        #expect(claims.developerClaims == ["premium": true, "level": .number(3)])
    }

    @Test("another key's signature, or a changed payload, does not verify")
    func wrongKey() throws {
        let other = try ServiceAccountKey.generate(name: "other", projectID: "demo-flint", random: SystemRandom())
        let token = try CustomToken(parsing: try signed())
        #expect(!token.verify(with: try ServiceAccountPublicKey(pem: other.publicKeyPEM)))
        var parts = try signed().split(separator: ".").map(String.init)
        parts[1] = Base64URL.encode(JSONValue.object(["uid": "someone-else", "aud": .string(CustomToken.audience)]).serialized())
        #expect(!(try CustomToken(parsing: parts.joined(separator: "."))).verify(with: try ServiceAccountPublicKey(pem: account.publicKeyPEM)))
    }

    @Test("empty is MISSING_CUSTOM_TOKEN; what is not a JWT or uses another algorithm is INVALID_CUSTOM_TOKEN")
    func form() {
        #expect(code { _ = try CustomToken(parsing: nil) } == "MISSING_CUSTOM_TOKEN")
        #expect(code { _ = try CustomToken(parsing: "") } == "MISSING_CUSTOM_TOKEN")
        for text in ["abc", "a.b", "a.b.c", "{not json", "eyJhbGciOiJIUzI1NiJ9.e30.c2ln"] {
            #expect(code { _ = try CustomToken(parsing: text) } == "INVALID_CUSTOM_TOKEN", "\(text)")
        }
    }

    @Test("unsigned tokens: alg none and plain JSON, as the emulator takes them, with uid or user_id")
    func unsigned() throws {
        let none = try CustomToken(
            parsing: CustomToken.unsigned(payload: ["aud": .string(CustomToken.audience), "uid": "a", "claims": ["x": .number(1)]]))
        #expect(none.signature == .unsigned)
        try none.checkAudience()
        #expect(try none.claims() == CustomTokenClaims(uid: "a", developerClaims: ["x": .number(1)]))
        let tenant = try CustomToken(parsing: try signed(extra: ["tenant_id": "acme-1a2b3"]))
        #expect(try tenant.claims().tenant == "acme-1a2b3", "a tenant's token names the tenant it signs into")
        let json = try CustomToken(parsing: #"{"user_id": 42}"#)
        try json.checkAudience()
        #expect(try json.claims().uid == "42")
        let wrongAudience = try CustomToken(parsing: CustomToken.unsigned(payload: ["aud": "demo-flint", "uid": "a"]))
        #expect(code { try wrongAudience.checkAudience() } == "INVALID_CUSTOM_TOKEN")
    }

    @Test("time: expired, longer than an hour, issued in the future, or without iat/exp is refused")
    func time() throws {
        let at = Instant(secondsSince1970: now)
        #expect(code { try CustomToken(parsing: try signed()).checkSigned(now: at + .seconds(3600)) } == "INVALID_CUSTOM_TOKEN")
        #expect(code { try CustomToken(parsing: try signed(lifetime: 3601)).checkSigned(now: at) } == "INVALID_CUSTOM_TOKEN")
        #expect(code { try CustomToken(parsing: try signed(at: now + 301)).checkSigned(now: at) } == "INVALID_CUSTOM_TOKEN")
        #expect(code { try CustomToken(parsing: try signed(at: now + 299)).checkSigned(now: at) } == nil)
        #expect(code { try CustomToken(parsing: try signed(extra: ["exp": "soon"])).checkSigned(now: at) } == "INVALID_CUSTOM_TOKEN")
        #expect(code { try CustomToken(parsing: try signed(extra: ["sub": "someone@else"])).checkSigned(now: at) } == "INVALID_CUSTOM_TOKEN")
        #expect(code { try CustomToken(parsing: try signed(extra: ["aud": "demo-flint"])).checkSigned(now: at) } == "INVALID_CUSTOM_TOKEN")
    }

    @Test(
        "uid and claims rules",
        arguments: [
            (["uid": ""], "MISSING_IDENTIFIER"), (["uid": .string(String(repeating: "u", count: 129))], "INVALID_CUSTOM_TOKEN"),
            (["uid": .string(String(repeating: "é", count: 128))], nil), (["claims": "text"], "INVALID_CLAIMS"),
            (["claims": .null], "INVALID_CLAIMS"),
            (["claims": ["sub": "x"]], "FORBIDDEN_CLAIM"), (["claims": ["firebase": [:]]], "FORBIDDEN_CLAIM"),
            (["claims": ["nonce": "n"]], "FORBIDDEN_CLAIM"),
            (["claims": ["big": .string(String(repeating: "x", count: 991))]], "CLAIMS_TOO_LARGE"),
            (["claims": ["fine": .string(String(repeating: "x", count: 980))]], nil), (["tenant_id": .number(5)], "TENANT_ID_MISMATCH"),
            (["tenant_id": "t1"], nil),
        ] as [([String: JSONValue], String?)])
    func rules(extra: [String: JSONValue], expected: String?) throws {
        let token = try CustomToken(parsing: try signed(extra: extra))
        #expect(code { _ = try token.claims() } == expected)
    }

    @Test("the service-account file has Google's fields, and its key is the stored public key's pair")
    func serviceAccountFile() throws {
        let file = try #require(try JSONValue(parsing: Array(account.fileJSON.utf8)).objectValue)
        #expect(file["type"] == "service_account")
        #expect(file["project_id"] == "demo-flint")
        #expect(file["client_email"] == "backend@demo-flint.iam.gserviceaccount.com")
        #expect(file["private_key_id"]?.stringValue == account.keyID)
        #expect(account.keyID.count == 40 && Hex.decode(account.keyID) != nil)
        #expect(file["client_id"]?.stringValue?.count == 21)
        #expect(file["token_uri"] == "https://oauth2.googleapis.com/token")
        let pem = try #require(file["private_key"]?.stringValue)
        #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----\n") && pem.hasSuffix("-----END PRIVATE KEY-----\n"))
        #expect(account.publicKeyPEM.hasPrefix("-----BEGIN PUBLIC KEY-----"))
        let token = try CustomToken.sign(uid: "u", clientEmail: account.clientEmail, keyID: account.keyID, privateKeyPEM: pem, now: now)
        #expect(try CustomToken(parsing: token).verify(with: try ServiceAccountPublicKey(pem: account.publicKeyPEM)))
    }

    @Test("admin secrets: prefixed, random, stored as hex SHA-256")
    func adminSecrets() {
        let a = AdminSecret.generate(random: SystemRandom())
        let b = AdminSecret.generate(random: SystemRandom())
        #expect(a.hasPrefix("flint_") && a.count == 6 + 43 && a != b)
        #expect(AdminSecret.hash("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test(
        "credential names",
        arguments: [
            ("backend", true), ("ci-read-1", true), ("a", true), ("", false), ("1abc", false), ("Abc", false), ("a_b", false), ("ab-", false),
            (String(repeating: "a", count: 63), true), (String(repeating: "a", count: 64), false), ("a.b", false),
        ])
    func names(name: String, valid: Bool) {
        #expect(CredentialName.isValid(name) == valid)
    }
}
