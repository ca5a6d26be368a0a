import Crypto
import FlintCore
import Foundation
import Testing

@Suite("ID tokens")
struct TokenTests {
    static let key: SigningKey = {
        do { return try SigningKey.generate(now: Instant(secondsSince1970: 1_800_000_000), random: SystemRandom()) } catch {
            fatalError("\(error)")
        }
    }()
    let now = Instant(secondsSince1970: 1_800_000_100)
    var ring: KeyRing { KeyRing(keys: [Self.key]) }

    func claims() -> IDTokenClaims {
        var c = IDTokenClaims(
            projectID: "demo-flint", userID: "uid123", authTime: Instant(secondsSince1970: 1_800_000_050),
            issuedAt: Instant(secondsSince1970: 1_800_000_100),
            signInProvider: "phone")
        c.phoneNumber = "+16505553434"
        c.identities = ["phone": ["+16505553434"]]
        c.customClaims = ["admin": .bool(true), "iss": .string("evil")]
        return c
    }

    func payload(of token: String) throws -> [String: JSONValue] {
        let part = token.split(separator: ".")[1]
        return try JSONDecoder().decode([String: JSONValue].self, from: Data(try #require(Base64URL.decode(part))))
    }

    @Test("a signed token verifies and carries Firebase's claims")
    func signAndVerify() throws {
        let token = try TokenSigner.sign(claims(), with: ring)
        let verified = try TokenVerifier.verify(token, ring: ring, projectID: "demo-flint", now: now)
        #expect(verified.userID == "uid123")
        let p = try payload(of: token)
        #expect(p["iss"] == .string("https://securetoken.google.com/demo-flint"))
        #expect(p["aud"] == .string("demo-flint"))
        #expect(p["sub"] == .string("uid123"))
        #expect(p["user_id"] == .string("uid123"))
        #expect(p["phone_number"] == .string("+16505553434"))
        #expect(p["exp"] == .number(1_800_003_700))
        #expect(p["auth_time"] == .number(1_800_000_050))
        #expect(p["firebase"]?["sign_in_provider"] == .string("phone"))
        #expect(p["firebase"]?["identities"]?["phone"] == .array([.string("+16505553434")]))
        #expect(p["admin"] == .bool(true), "custom claims are merged")
        let header = try JSONDecoder().decode([String: String].self, from: Data(try #require(Base64URL.decode(token.split(separator: ".")[0]))))
        #expect(header == ["alg": "RS256", "kid": Self.key.kid, "typ": "JWT"])
        #expect(!token.contains("\\/"))
    }

    @Test("the signature checks out with the published JWK's modulus and exponent")
    func jwkMatches() throws {
        let jwk = try Self.key.jwk()
        #expect(jwk["kid"] == Self.key.kid)
        #expect(jwk["alg"] == "RS256")
        #expect(jwk["e"] == "AQAB")
        #expect(Self.key.certificatePEM.hasPrefix("-----BEGIN CERTIFICATE-----"))
    }

    @Test("a token past its exp is refused")
    func expired() throws {
        let token = try TokenSigner.sign(claims(), with: ring)
        #expect(throws: AuthError.invalidIDToken) {
            try TokenVerifier.verify(token, ring: ring, projectID: "demo-flint", now: now + .seconds(3600))
        }
    }

    @Test("a token for another project is refused")
    func wrongAudience() throws {
        let token = try TokenSigner.sign(claims(), with: ring)
        #expect(throws: AuthError.invalidIDToken) { try TokenVerifier.verify(token, ring: ring, projectID: "other", now: now) }
    }

    @Test("alg none, a forged signature, an unknown kid and garbage are refused")
    func forgeries() throws {
        let token = try TokenSigner.sign(claims(), with: ring)
        let parts = token.split(separator: ".").map(String.init)
        let noneHeader = Base64URL.encode(Array(#"{"alg":"none","typ":"JWT"}"#.utf8))
        let unknownKid = Base64URL.encode(Array(#"{"alg":"RS256","kid":"nope","typ":"JWT"}"#.utf8))
        var sig = Base64URL.decode(parts[2])!
        sig[10] ^= 0xff
        let forgedPayload = Base64URL.encode(
            Array(#"{"sub":"attacker","aud":"demo-flint","iss":"https://securetoken.google.com/demo-flint","iat":1800000100,"exp":1900000000}"#.utf8))
        for bad in [
            "\(noneHeader).\(parts[1]).", "\(parts[0]).\(parts[1]).\(Base64URL.encode(sig))", "\(unknownKid).\(parts[1]).\(parts[2])",
            "\(parts[0]).\(forgedPayload).\(parts[2])", "garbage", "", "a.b.c",
        ] {
            #expect(throws: AuthError.invalidIDToken) { try TokenVerifier.verify(bad, ring: ring, projectID: "demo-flint", now: now) }
        }
    }

    @Test("a retired key stays published through its grace period, then drops out")
    func rotation() throws {
        var old = Self.key
        old.retiredAt = now
        let fresh = try SigningKey.generate(now: now, random: SystemRandom())
        let rotated = KeyRing(keys: [old, fresh])
        #expect(rotated.signer(at: now)?.kid == fresh.kid)
        #expect(rotated.published(at: now).count == 2)
        #expect(rotated.published(at: now + KeyRing.retiredKeyGrace + .seconds(1)).map(\.kid) == [fresh.kid])
        let oldToken = try TokenSigner.sign(claims(), with: KeyRing(keys: [Self.key]))
        #expect(try TokenVerifier.verify(oldToken, ring: rotated, projectID: "demo-flint", now: now).userID == "uid123")
    }
}

@Suite("ID token numbers from outside")
struct TokenNumberTests {
    let now = Instant(secondsSince1970: 1_800_000_100)
    var ring: KeyRing { KeyRing(keys: [TokenTests.key]) }

    func claims(authTime: Int64 = 1_800_000_050, issuedAt: Int64 = 1_800_000_100) -> IDTokenClaims {
        IDTokenClaims(
            projectID: "demo-flint", userID: "uid123", authTime: Instant(secondsSince1970: authTime), issuedAt: Instant(secondsSince1970: issuedAt),
            signInProvider: "phone")
    }

    @Test("huge auth_time or iat values make the token invalid instead of trapping", arguments: [Int64.max, Int64(1) << 62, 1 << 53])
    func hugeTimes(_ value: Int64) throws {
        let hugeAuthTime = try TokenSigner.sign(claims(authTime: value), with: ring)
        #expect(throws: AuthError.invalidIDToken) { try TokenVerifier.verify(hugeAuthTime, ring: ring, projectID: "demo-flint", now: now) }
        var hugeIssue = claims(issuedAt: value)
        hugeIssue.lifetime = .zero
        let token = try TokenSigner.sign(hugeIssue, with: ring)
        #expect(throws: AuthError.invalidIDToken) { try TokenVerifier.verify(token, ring: ring, projectID: "demo-flint", now: now) }
    }

    @Test("a negative auth_time is invalid")
    func negativeAuthTime() throws {
        let token = try TokenSigner.sign(claims(authTime: -5), with: ring)
        #expect(throws: AuthError.invalidIDToken) { try TokenVerifier.verify(token, ring: ring, projectID: "demo-flint", now: now) }
    }

    @Test("the revocation generation travels in the firebase claim, and only once an account was revoked")
    func revocationGeneration() throws {
        let plain = try TokenSigner.sign(claims(), with: ring)
        #expect(try TokenVerifier.verify(plain, ring: ring, projectID: "demo-flint", now: now).revocationGeneration == 0)
        var revoked = claims()
        revoked.revocationGeneration = 3
        #expect(revoked.payload["firebase"]?["revocation_generation"] == .number(3))
        #expect(claims().payload["firebase"]?["revocation_generation"] == nil)
        let token = try TokenSigner.sign(revoked, with: ring)
        #expect(try TokenVerifier.verify(token, ring: ring, projectID: "demo-flint", now: now).revocationGeneration == 3)
    }
}
