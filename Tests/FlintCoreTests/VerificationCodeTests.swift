import Crypto
import FlintCore
import Testing

/// A random source replaying fixed bytes, to drive rejection sampling.
struct ScriptedRandom: RandomSource {
    let script: [UInt8]
    func bytes(_ count: Int) -> [UInt8] { Array(script.prefix(count)) }
}

@Suite("Verification codes")
struct VerificationCodeTests {
    @Test("codes are six decimal digits")
    func shape() {
        for _ in 0..<200 {
            let code = VerificationCode.generate(using: SystemRandom())
            #expect(code.count == 6)
            #expect(VerificationCode.isWellFormed(code))
        }
    }

    @Test("leading zeros are kept")
    func leadingZeros() {
        #expect(VerificationCode.generate(using: ScriptedRandom(script: [7, 0, 0, 0])) == "000007")
    }

    @Test("codes spread over the whole range")
    func spread() {
        let firstDigits = Set((0..<500).map { _ in VerificationCode.generate(using: SystemRandom()).first! })
        #expect(firstDigits.count == 10)
    }

    @Test("only six ASCII digits are well formed", arguments: ["12345", "1234567", "12a456", "１２３４５６", " 12345", ""])
    func malformed(text: String) {
        #expect(!VerificationCode.isWellFormed(text))
    }

    @Test("the stored hash depends on the session and the code, and never equals the code")
    func hashing() {
        let secret = ServerSecret(master: SystemRandom().bytes(32))
        let s1 = SystemRandom().bytes(16)
        let s2 = SystemRandom().bytes(16)
        let h = secret.codeHash(sessionID: s1, code: "123456")
        #expect(h == secret.codeHash(sessionID: s1, code: "123456"))
        #expect(h != secret.codeHash(sessionID: s2, code: "123456"))
        #expect(h != secret.codeHash(sessionID: s1, code: "123457"))
        #expect(h.count == 32)
        let other = ServerSecret(master: SystemRandom().bytes(32))
        #expect(h != other.codeHash(sessionID: s1, code: "123456"))
    }

    @Test("constant-time comparison agrees with equality")
    func compare() {
        #expect(constantTimeEquals([1, 2, 3], [1, 2, 3]))
        #expect(!constantTimeEquals([1, 2, 3], [1, 2, 4]))
        #expect(!constantTimeEquals([1, 2, 3], [1, 2]))
    }
}
