import FlintCore
import Testing

@Suite("TOTP")
struct MFATOTPTests {
    static let sha1Seed = Array("12345678901234567890".utf8)
    static let sha256Seed = Array("12345678901234567890123456789012".utf8)
    static let sha512Seed = Array("1234567890123456789012345678901234567890123456789012345678901234".utf8)

    /// RFC 6238 appendix B: time, then the 8-digit codes for SHA-1, SHA-256 and SHA-512.
    static let rfc6238: [(Int64, String, String, String)] = [
        (59, "94287082", "46119246", "90693936"),
        (1_111_111_109, "07081804", "68084774", "25091201"),
        (1_111_111_111, "14050471", "67062674", "99943326"),
        (1_234_567_890, "89005924", "91819424", "93441116"),
        (2_000_000_000, "69279037", "90698825", "38618901"),
        (20_000_000_000, "65353130", "77737706", "47863826"),
    ]

    @Test("the RFC 6238 appendix B vectors hold for SHA-1, SHA-256 and SHA-512", arguments: rfc6238)
    func rfc6238Vectors(time: Int64, sha1: String, sha256: String, sha512: String) {
        let step = TOTP.step(at: time, period: 30)
        #expect(TOTP.code(secret: Self.sha1Seed, step: step, parameters: TOTPParameters(digits: 8, algorithm: .sha1)) == sha1)
        #expect(TOTP.code(secret: Self.sha256Seed, step: step, parameters: TOTPParameters(digits: 8, algorithm: .sha256)) == sha256)
        #expect(TOTP.code(secret: Self.sha512Seed, step: step, parameters: TOTPParameters(digits: 8, algorithm: .sha512)) == sha512)
    }

    @Test("the RFC 4226 appendix D HOTP vectors hold with six digits")
    func rfc4226Vectors() {
        let expected = ["755224", "287082", "359152", "969429", "338314", "254676", "287922", "162583", "399871", "520489"]
        for (counter, code) in expected.enumerated() {
            #expect(TOTP.code(secret: Self.sha1Seed, step: Int64(counter), parameters: TOTPParameters()) == code)
        }
    }

    @Test("steps are floor(t / period), also before 1970")
    func steps() {
        #expect(TOTP.step(at: 0, period: 30) == 0)
        #expect(TOTP.step(at: 29, period: 30) == 0)
        #expect(TOTP.step(at: 30, period: 30) == 1)
        #expect(TOTP.step(at: -1, period: 30) == -1)
        #expect(TOTP.step(at: 59, period: 60) == 0)
    }

    @Test("a code matches within ±N steps and returns its step", arguments: -2...2)
    func windowMatching(offset: Int64) {
        let secret = TOTP.generateSecret(using: SystemRandom())
        let now: Int64 = 1_800_000_000
        let nowStep = TOTP.step(at: now, period: 30)
        let code = TOTP.code(secret: secret, step: nowStep + offset, parameters: TOTPParameters())
        let found = TOTP.matchingStep(code: code, secret: secret, at: now, adjacentIntervals: 2, parameters: TOTPParameters())
        #expect(found == nowStep + offset)
    }

    @Test("a code one step outside the window is refused")
    func outsideWindow() {
        let secret = Self.sha1Seed
        let now: Int64 = 1_800_000_000
        let nowStep = TOTP.step(at: now, period: 30)
        let params = TOTPParameters()
        for offset: Int64 in [-3, 3] {
            let code = TOTP.code(secret: secret, step: nowStep + offset, parameters: params)
            // Codes of nearby steps could collide by chance; this secret and time have none within ±3.
            let others = (-2...2).map { TOTP.code(secret: secret, step: nowStep + Int64($0), parameters: params) }
            #expect(!others.contains(code))
            #expect(TOTP.matchingStep(code: code, secret: secret, at: now, adjacentIntervals: 2, parameters: params) == nil)
        }
        let current = TOTP.code(secret: secret, step: nowStep + 1, parameters: params)
        #expect(TOTP.matchingStep(code: current, secret: secret, at: now, adjacentIntervals: 0, parameters: params) == nil)
    }

    @Test("malformed codes are refused", arguments: ["", "12345", "1234567", "12345a", "12 456", "١٢٣٤٥٦", "-12345"])
    func malformed(code: String) {
        #expect(TOTP.matchingStep(code: code, secret: Self.sha1Seed, at: 59, adjacentIntervals: 10, parameters: TOTPParameters()) == nil)
    }

    @Test("a generated secret has 20 bytes")
    func secretLength() {
        #expect(TOTP.generateSecret(using: SystemRandom()).count == 20)
    }

    @Test("the otpauth URL carries the Base32 secret and percent-encoded label and issuer")
    func otpauthURL() {
        let url = TOTP.otpauthURL(
            secret: Self.sha1Seed, accountName: "ada@example.com", issuer: "My App", parameters: TOTPParameters())
        #expect(
            url
                == "otpauth://totp/My%20App:ada%40example.com?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=My%20App&algorithm=SHA1&digits=6&period=30"
        )
    }
}

@Suite("Base32")
struct MFABase32Tests {
    static let rfc4648: [(String, String)] = [
        ("", ""), ("f", "MY"), ("fo", "MZXQ"), ("foo", "MZXW6"), ("foob", "MZXW6YQ"), ("fooba", "MZXW6YTB"),
        ("foobar", "MZXW6YTBOI"),
    ]

    @Test("the RFC 4648 test vectors encode without padding and decode with or without it", arguments: rfc4648)
    func vectors(plain: String, encoded: String) {
        #expect(Base32.encode(Array(plain.utf8)) == encoded)
        #expect(Base32.decode(encoded) == Array(plain.utf8))
        let padded = encoded + String(repeating: "=", count: (8 - encoded.count % 8) % 8)
        #expect(Base32.decode(padded) == Array(plain.utf8))
    }

    @Test("decoding ignores case and spaces")
    func lenientDecoding() {
        #expect(Base32.decode("mzxw 6ytb oi") == Array("foobar".utf8))
    }

    @Test("random bytes round-trip", arguments: [1, 5, 10, 16, 20, 33])
    func roundTrip(count: Int) {
        let bytes = SystemRandom().bytes(count)
        #expect(Base32.decode(Base32.encode(bytes)) == bytes)
    }

    @Test("invalid characters and impossible lengths are refused", arguments: ["MZXW1", "MZXW8", "MZ-X", "M", "MZX", "MZXW6Y"])
    func invalid(text: String) {
        #expect(Base32.decode(text) == nil)
    }
}
