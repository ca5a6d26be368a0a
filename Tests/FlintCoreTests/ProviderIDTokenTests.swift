import Crypto
import FlintCore
import Foundation
import Testing

/// One RSA key for the suite (2048-bit generation is slow in debug builds).
private let providerKey: SigningKey = {
    do { return try SigningKey.generate(now: Instant(secondsSince1970: 1_700_000_000), random: SystemRandom()) } catch {
        preconditionFailure("key generation failed: \(error)")
    }
}()

@Suite("Provider ID tokens: JWKS parsing, signature and claim checks, nonces, profiles, postBody")
struct ProviderIDTokenTests {
    let now = Instant(secondsSince1970: 1_700_000_000)
    let expected = ProviderTokenExpectation(issuers: ["https://appleid.apple.com"], audiences: ["com.example.app"], nonce: .appleHashed)

    var keySet: ProviderKeySet {
        get throws {
            let jwk = try providerKey.jwk().mapValues(JSONValue.string)
            let document: JSONValue = [
                "keys": [.object(jwk), ["kty": "oct", "kid": "hmac", "k": "AAAA"], ["kty": "RSA", "kid": "enc", "use": "enc"]]
            ]
            return try ProviderKeySet(jwks: document.serialized())
        }
    }

    func claims(_ changes: [String: JSONValue] = [:]) -> [String: JSONValue] {
        var claims: [String: JSONValue] = [
            "iss": "https://appleid.apple.com", "aud": "com.example.app", "sub": "001.apple", "iat": .number(Double(now.secondsSince1970)),
            "exp": .number(Double(now.secondsSince1970 + 600)), "nonce": .string(ProviderNonceRule.sha256Hex("raw")),
        ]
        for (key, value) in changes { claims[key] = value == .null ? nil : value }
        return claims
    }

    func sign(_ claims: [String: JSONValue], alg: String = "RS256", kid: String? = nil) throws -> String {
        let header: JSONValue = ["alg": .string(alg), "kid": .string(kid ?? providerKey.kid)]
        let input = Base64URL.encode(header.serialized()) + "." + Base64URL.encode(JSONValue.object(claims).serialized())
        return input + "." + Base64URL.encode(try providerKey.sign(Array(input.utf8)))
    }

    func check(_ token: String, nonce: String? = "raw") throws {
        try ProviderIDToken(parsing: token).verify(keys: try keySet, expected: expected, rawNonce: nonce, now: now)
    }

    @Test("a JWKS keeps the signing keys it can use and drops the others")
    func jwksParsing() throws {
        let keys = try keySet
        #expect(keys.keys.count == 1)
        #expect(keys.key(kid: providerKey.kid) != nil)
        #expect(throws: ProviderTokenError.self) { try ProviderKeySet(jwks: Array("[]".utf8)) }
    }

    @Test("a well-formed token verifies; aud may be a list")
    func verifies() throws {
        try check(try sign(claims()))
        try check(try sign(claims(["aud": ["other", "com.example.app"]])))
    }

    @Test(
        "each bad claim or signature is refused",
        arguments: [
            (["iss": "https://evil.example"], "issuer"), (["aud": "com.other"], "audience"), (["exp": .number(1_699_999_000)], "expired"),
            (["iat": .number(1_700_001_000)], "future"), (["sub": .null], "subject"), (["exp": .null], "expiry"),
        ] as [([String: JSONValue], String)])
    func badClaims(_ changes: [String: JSONValue], _ what: String) throws {
        let error = #expect(throws: ProviderTokenError.self, "\(what)") { try check(try sign(claims(changes))) }
        #expect(error?.code == "INVALID_IDP_RESPONSE")
    }

    @Test("a small clock skew is tolerated on exp")
    func skew() throws {
        try check(try sign(claims(["exp": .number(Double(now.secondsSince1970 - 30))])))
    }

    @Test("exp and iat may carry fractions of a second, as NumericDate allows")
    func fractionalTimes() throws {
        try check(try sign(claims(["exp": .number(Double(now.secondsSince1970) + 600.25), "iat": .number(Double(now.secondsSince1970) + 0.5)])))
        #expect(throws: ProviderTokenError.self) { try check(try sign(claims(["exp": .number(-1)]))) }
        #expect(throws: ProviderTokenError.self) { try check(try sign(claims(["exp": "1700000600"]))) }
    }

    @Test("unknown kid, other algorithms and tampered payloads are refused")
    func signatures() throws {
        #expect(throws: ProviderTokenError.self) { try check(try sign(claims(), kid: "unknown")) }
        #expect(throws: ProviderTokenError.self) { try check(try sign(claims(), alg: "HS256")) }
        #expect(throws: ProviderTokenError.self) { try check(try sign(claims(), alg: "ES256")) }
        let token = try sign(claims())
        let parts = token.split(separator: ".").map(String.init)
        let forged = parts[0] + "." + Base64URL.encode(JSONValue.object(claims(["sub": "someone-else"])).serialized()) + "." + parts[2]
        #expect(throws: ProviderTokenError.self) { try check(forged) }
        #expect(throws: ProviderTokenError.self) { try check("a.b") }
    }

    @Test("ES256 tokens verify with a P-256 JWK")
    func es256() throws {
        let key = P256.Signing.PrivateKey()
        let raw = Array(key.publicKey.x963Representation)
        let jwk: JSONValue = [
            "kty": "EC", "crv": "P-256", "kid": "ec1", "x": .string(Base64URL.encode(raw[1..<33])), "y": .string(Base64URL.encode(raw[33..<65])),
        ]
        let keys = try ProviderKeySet(jwks: JSONValue.object(["keys": [jwk]]).serialized())
        let header: JSONValue = ["alg": "ES256", "kid": "ec1"]
        let input = Base64URL.encode(header.serialized()) + "." + Base64URL.encode(JSONValue.object(claims()).serialized())
        let signature = try key.signature(for: Array(input.utf8)).rawRepresentation
        let token = input + "." + Base64URL.encode(signature)
        try ProviderIDToken(parsing: token).verify(keys: keys, expected: expected, rawNonce: "raw", now: now)
    }

    @Test(
        "nonces: Apple's carry the SHA-256 hex of the raw nonce; others the raw value or its hash; Google's only when sent",
        arguments: [
            (ProviderNonceRule.appleHashed, ProviderNonceRule.sha256Hex("r"), "r", true), (.appleHashed, "r", "r", false),
            (.appleHashed, ProviderNonceRule.sha256Hex("r"), nil, false), (.appleHashed, nil, "r", false), (.appleHashed, nil, nil, true),
            (.required, "r", "r", true), (.required, ProviderNonceRule.sha256Hex("r"), "r", true), (.required, "r", nil, false),
            (.whenSent, "sdk-nonce", nil, true), (.whenSent, "x", "y", false),
        ] as [(ProviderNonceRule, String?, String?, Bool)])
    func nonces(_ rule: ProviderNonceRule, _ claim: String?, _ raw: String?, _ accepted: Bool) {
        let error = (try? rule.check(claim: claim, raw: raw)) == nil
        #expect(error == !accepted)
    }

    @Test("the SHA-256 hex of a nonce is lower-case hex")
    func nonceHash() {
        #expect(ProviderNonceRule.sha256Hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test("profiles read Apple's string flags, lower-case the email and take the app's names")
    func profiles() {
        let apple = ProviderProfile(
            claims: ["sub": "001", "email": "X@PrivateRelay.AppleID.com", "email_verified": "true", "is_private_email": "true"],
            appName: ProviderProfile.appName(fromUserJSON: #"{"name":{"firstName":"Ada","lastName":"L"}}"#))
        #expect(apple.email == "x@privaterelay.appleid.com")
        #expect(apple.emailVerified)
        #expect(apple.isPrivateEmail)
        #expect(apple.displayName == "Ada L")
        let google = ProviderProfile(claims: ["sub": "1", "email": "a@b.c", "email_verified": false, "name": "A B", "picture": "https://p"])
        #expect(!google.emailVerified)
        #expect(google.displayName == "A B")
        #expect(google.photoURL == "https://p")
        #expect(ProviderProfile(claims: ["sub": "1", "email_verified": true]).emailVerified == false)
    }

    @Test("postBody is read as a form, percent escapes and + decoded")
    func postBody() {
        let body = IdpPostBody(parsing: "providerId=apple.com&id_token=a.b.c&nonce=x%20y+z&user=%7B%22name%22%3A%7B%7D%7D&junk")
        #expect(body.providerID == "apple.com")
        #expect(body.idToken == "a.b.c")
        #expect(body.nonce == "x y z")
        #expect(body.user == #"{"name":{}}"#)
        #expect(IdpPostBody(parsing: "providerId=%zz").providerID == nil)
    }

    @Test("provider configs are validated in the project config")
    func configValidation() throws {
        let good: [String: JSONValue] = [
            "defaultSupportedIdpConfigs": ["apple.com": ["enabled": true, "clientId": "svc", "appleSignInConfig": ["bundleIds": ["app"]]]],
            "oauthIdpConfigs": ["oidc.corp": ["enabled": true, "clientId": "c", "issuer": "https://id.corp.example"]],
        ]
        let config = try ProjectConfig(document: good)
        #expect(config.identityProvider("apple.com")?.audiences == ["svc", "app"])
        #expect(config.identityProvider("oidc.corp")?.issuer == "https://id.corp.example")
        #expect(config.identityProvider("google.com") == nil)
        let bad: [[String: JSONValue]] = [
            ["defaultSupportedIdpConfigs": ["myspace.com": ["enabled": true]]],
            ["oauthIdpConfigs": ["oidc.corp": ["clientId": "c"]]],
            ["oauthIdpConfigs": ["corp": ["clientId": "c", "issuer": "https://x"]]],
            ["defaultSupportedIdpConfigs": ["apple.com": ["enabled": "yes"]]],
        ]
        for document in bad { #expect(throws: AuthError.self) { try ProjectConfig(document: document) } }
    }

    @Test("pending tokens open with their key until they expire, never as another kind, and keep their tenant")
    func pendingTokens() throws {
        let secret = ServerSecret(master: Array(repeating: 7, count: 32))
        let profile = ProviderProfile(claims: ["sub": "1093", "email": "a@b.c", "email_verified": true, "name": "A B"])
        let token = IdpPendingToken(providerID: "google.com", profile: profile, now: now)
        let text = try token.seal(key: secret.idpKey)
        let opened = try #require(IdpPendingToken(opening: text, key: secret.idpKey, now: now + .seconds(60)))
        #expect(opened == token)
        #expect(ProviderProfile(claims: opened.claims) == profile)
        #expect(IdpPendingToken(opening: text, key: secret.idpKey, now: now + .seconds(3601)) == nil)
        #expect(IdpPendingToken(opening: text, key: secret.mfaKey, now: now) == nil)
        #expect(IdpPendingToken(opening: "x" + text, key: secret.idpKey, now: now) == nil)
        #expect(opened.tenant.isEmpty)
        let inTenant = IdpPendingToken(providerID: "google.com", profile: profile, tenant: "acme-x7k2q", now: now)
        let tenantText = try inTenant.seal(key: secret.idpKey)
        #expect(try #require(IdpPendingToken(opening: tenantText, key: secret.idpKey, now: now)).tenant == "acme-x7k2q")
    }
}
