import Crypto
import FlintCore
import Testing

@Suite("MFA pending credentials and TOTP enrollment sessions")
struct MFASealedTests {
    let key = ServerSecret(master: SystemRandom().bytes(32)).mfaKey

    func credential() -> MFAPendingCredential {
        MFAPendingCredential(
            localID: "u1QzXk8BvV3u2wB1J0bC6a8h9Q2x", signInProvider: "password", authTime: Instant(secondsSince1970: 1_800_000_000),
            issuedAt: Instant(secondsSince1970: 1_800_000_005), using: SystemRandom())
    }

    @Test("a pending credential round-trips with a 16-byte nonce")
    func credentialRoundTrip() throws {
        let c = credential()
        #expect(c.nonce.count == 16)
        let text = try c.seal(key: key)
        #expect(MFAPendingCredential(opening: text, key: key) == c)
    }

    @Test("a tenant's account's credential carries its tenant; the default tenant's carries none, as before")
    func tenantRoundTrip() throws {
        var c = credential()
        c.tenant = "acme-x7k2q"
        #expect(MFAPendingCredential(opening: try c.seal(key: key), key: key)?.tenant == "acme-x7k2q")
        #expect(MFAPendingCredential(opening: try credential().seal(key: key), key: key)?.tenant == "")
    }

    @Test("a first factor's session claims ride in the credential, with or without a tenant")
    func sessionClaimsRoundTrip() throws {
        let claims: [String: JSONValue] = ["firebase": ["sign_in_attributes": ["groups": ["admins", "staff"], "email": "a@example.com"]]]
        for tenant in ["", "acme-x7k2q"] {
            var c = credential()
            (c.tenant, c.sessionClaims) = (tenant, claims)
            let opened = MFAPendingCredential(opening: try c.seal(key: key), key: key)
            #expect(opened == c && opened?.sessionClaims == claims && opened?.tenant == tenant)
        }
        #expect(MFAPendingCredential(opening: try credential().seal(key: key), key: key)?.sessionClaims == nil)
        var huge = credential()
        huge.sessionClaims = ["firebase": ["sign_in_attributes": ["blob": .string(String(repeating: "x", count: 70_000))]]]
        #expect(throws: (any Error).self, "claims are never cut short") { try huge.seal(key: key) }
    }

    @Test("a first factor's blocking facts ride beside its session claims, or alone; together they are bounded")
    func blockingFactsRoundTrip() throws {
        let facts: [String: JSONValue] = ["raw_user_info": #"{"sub":"u-1"}"#, "oauth_id_token": "eyJ.x.y"]
        let claims: [String: JSONValue] = ["firebase": ["sign_in_attributes": ["groups": ["staff"]]]]
        for (tenant, sessionClaims) in [("", nil), ("acme-x7k2q", nil), ("", claims), ("acme-x7k2q", claims)] as [(String, [String: JSONValue]?)] {
            var c = credential()
            (c.tenant, c.sessionClaims, c.blockingFacts) = (tenant, sessionClaims, facts)
            let opened = MFAPendingCredential(opening: try c.seal(key: key), key: key)
            #expect(opened == c && opened?.blockingFacts == facts && opened?.sessionClaims == sessionClaims && opened?.tenant == tenant)
        }
        var big = credential()
        big.sessionClaims = claims
        big.blockingFacts = ["raw_user_info": .string(String(repeating: "x", count: MFAPendingCredential.maxCarriedBytes))]
        #expect(throws: MFAPendingCredential.TooLarge.self, "refused whole, never cut short") { try big.seal(key: key) }
        big.blockingFacts = ["raw_user_info": .string(String(repeating: "x", count: MFAPendingCredential.maxCarriedBytes - 200))]
        #expect(MFAPendingCredential(opening: try big.seal(key: key), key: key) == big, "up to the bound, it opens whole")
    }

    @Test("sealing twice gives different strings that open to the same credential")
    func freshNonces() throws {
        let c = credential()
        let a = try c.seal(key: key)
        let b = try c.seal(key: key)
        #expect(a != b)
        #expect(MFAPendingCredential(opening: b, key: key) == c)
    }

    @Test("the string reveals neither the user nor the provider")
    func opaque() throws {
        let text = try credential().seal(key: key)
        let raw = Base64URL.decode(text) ?? []
        #expect(!String(decoding: raw, as: UTF8.self).contains("password"))
        #expect(!text.contains("u1QzXk8B"))
    }

    @Test("every tampered byte is refused")
    func tamperedCredential() throws {
        let raw = Base64URL.decode(try credential().seal(key: key)) ?? []
        #expect(!raw.isEmpty)
        for i in raw.indices {
            var bytes = raw
            bytes[i] ^= 0x01
            #expect(MFAPendingCredential(opening: Base64URL.encode(bytes), key: key) == nil)
        }
    }

    @Test("a truncated credential is refused")
    func truncated() throws {
        let text = try credential().seal(key: key)
        #expect(MFAPendingCredential(opening: String(text.dropLast(4)), key: key) == nil)
    }

    @Test("a credential sealed under another key is refused")
    func otherKey() throws {
        let text = try credential().seal(key: SymmetricKey(size: .bits256))
        #expect(MFAPendingCredential(opening: text, key: key) == nil)
    }

    @Test("garbage is refused", arguments: ["", "x", "not base64 !", String(repeating: "A", count: 64), String(repeating: "A", count: 5000)])
    func garbage(text: String) {
        #expect(MFAPendingCredential(opening: text, key: key) == nil)
        #expect(TOTPEnrollmentSession(opening: text, key: key) == nil)
    }

    @Test("a credential lives 300 seconds: accepted at 299, expired at 300")
    func credentialExpiry() {
        let c = credential()
        #expect(!c.isExpired(now: c.issuedAt))
        #expect(!c.isExpired(now: c.issuedAt + .seconds(299)))
        #expect(c.isExpired(now: c.issuedAt + .seconds(300)))
        #expect(!c.isExpired(now: c.issuedAt + .seconds(59), lifetime: .seconds(60)))
        #expect(c.isExpired(now: c.issuedAt + .seconds(60), lifetime: .seconds(60)))
    }

    @Test("a TOTP enrollment session round-trips")
    func sessionRoundTrip() throws {
        let s = TOTPEnrollmentSession(
            localID: "abc", secret: TOTP.generateSecret(using: SystemRandom()), issuedAt: Instant(secondsSince1970: 1_800_000_000))
        #expect(TOTPEnrollmentSession(opening: try s.seal(key: key), key: key) == s)
    }

    @Test("a tampered or foreign-key TOTP session is refused")
    func sessionTampered() throws {
        let s = TOTPEnrollmentSession(
            localID: "abc", secret: TOTP.generateSecret(using: SystemRandom()), issuedAt: Instant(secondsSince1970: 1_800_000_000))
        var raw = Base64URL.decode(try s.seal(key: key)) ?? []
        raw[raw.count / 2] ^= 0x80
        #expect(TOTPEnrollmentSession(opening: Base64URL.encode(raw), key: key) == nil)
        #expect(TOTPEnrollmentSession(opening: try s.seal(key: SymmetricKey(size: .bits256)), key: key) == nil)
    }

    @Test("a TOTP session expires at its lifetime")
    func sessionExpiry() {
        let s = TOTPEnrollmentSession(localID: "abc", secret: [1, 2, 3], issuedAt: Instant(secondsSince1970: 1_800_000_000))
        #expect(!s.isExpired(now: s.issuedAt + TOTPEnrollmentSession.defaultLifetime - .seconds(1)))
        #expect(s.isExpired(now: s.issuedAt + TOTPEnrollmentSession.defaultLifetime))
    }

    @Test("one kind of sealed string never opens as the other")
    func kindsAreSeparate() throws {
        let c = try credential().seal(key: key)
        let s = try TOTPEnrollmentSession(localID: "abc", secret: [1, 2, 3], issuedAt: Instant(secondsSince1970: 1)).seal(key: key)
        #expect(TOTPEnrollmentSession(opening: c, key: key) == nil)
        #expect(MFAPendingCredential(opening: s, key: key) == nil)
        // Relabelling the kind byte does not help either: it is authenticated.
        var raw = Base64URL.decode(s) ?? []
        raw[1] = 1
        #expect(MFAPendingCredential(opening: Base64URL.encode(raw), key: key) == nil)
    }

    @Test("the MFA and recovery keys are distinct from the other derived keys")
    func derivedKeys() {
        let secret = ServerSecret(master: Array(repeating: 7, count: 32))
        let keys = [secret.codeKey, secret.sessionKey, secret.refreshKey, secret.mfaKey, secret.recoveryKey].map {
            $0.withUnsafeBytes { Array($0) }
        }
        #expect(Set(keys).count == 5)
        #expect(ServerSecret(master: Array(repeating: 7, count: 32)).mfaKey == secret.mfaKey)
    }
}
