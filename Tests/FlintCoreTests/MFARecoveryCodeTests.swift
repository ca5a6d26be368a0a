import Crypto
import FlintCore
import Testing

@Suite("Recovery codes")
struct MFARecoveryCodeTests {
    let key = ServerSecret(master: SystemRandom().bytes(32)).recoveryKey

    @Test("ten codes by default, shaped xxxx-xxxx-xxxx, from the look-alike-free alphabet")
    func shape() {
        let codes = RecoveryCodes.generate(using: SystemRandom())
        #expect(codes.count == 10)
        #expect(Set(codes).count == 10)
        for code in codes {
            let groups = code.split(separator: "-", omittingEmptySubsequences: false)
            #expect(groups.count == 3 && groups.allSatisfy { $0.count == 4 })
            #expect(code.utf8.allSatisfy { $0 == UInt8(ascii: "-") || RecoveryCodes.alphabet.contains($0) })
            #expect(!code.contains { "0o1li".contains($0) })
            #expect(RecoveryCodes.normalize(code) == code.replacingDashes())
        }
        #expect(RecoveryCodes.generate(count: 3, using: SystemRandom()).count == 3)
    }

    @Test("the alphabet has 31 characters, so 12 of them carry 59.4 bits")
    func alphabet() {
        #expect(RecoveryCodes.alphabet.count == 31)
        #expect(Set(RecoveryCodes.alphabet).count == 31)
        #expect(RecoveryCodes.length == 12)
    }

    @Test("every character of the alphabet turns up")
    func uniformish() {
        let all = RecoveryCodes.generate(count: 200, using: SystemRandom()).joined()
        #expect(Set(all.utf8.filter { $0 != UInt8(ascii: "-") }) == Set(RecoveryCodes.alphabet))
    }

    @Test(
        "typed codes are normalized",
        arguments: [
            ("abcd-efgh-jkmn", "abcdefghjkmn"), ("ABCD EFGH JKMN", "abcdefghjkmn"), (" abcdefghjkmn\n", "abcdefghjkmn"),
            ("ab-cd-ef-gh-jk-mn", "abcdefghjkmn"),
        ])
    func normalize(text: String, expected: String) {
        #expect(RecoveryCodes.normalize(text) == expected)
    }

    @Test(
        "malformed codes are refused",
        arguments: [
            "", "abcd-efgh-jkm", "abcd-efgh-jkmnp", "abcd-efgh-jkm0", "abcd-efgh-jkmo", "abcd-efgh-jkm1", "abcd-efgh-jkml",
            "abcd-efgh-jkmi", "abcd_efgh_jkmn", "abcd-efgh-jkmé",
        ])
    func malformed(text: String) {
        #expect(RecoveryCodes.normalize(text) == nil)
    }

    @Test("hashes are keyed, deterministic and hex")
    func hashing() {
        let h = RecoveryCodes.hash("abcdefghjkmn", key: key)
        #expect(h.count == 64 && h.allSatisfy(\.isHexDigit))
        #expect(h == RecoveryCodes.hash("abcdefghjkmn", key: key))
        #expect(h != RecoveryCodes.hash("abcdefghjkmp", key: key))
        #expect(h != RecoveryCodes.hash("abcdefghjkmn", key: SymmetricKey(size: .bits256)))
    }

    @Test("the hash is HMAC-SHA256 of the normalized code")
    func hashIsHMAC() {
        let k = SymmetricKey(data: Array(repeating: UInt8(1), count: 32))
        let expected = Hex.encode(HMAC<SHA256>.authenticationCode(for: Array("abcdefghjkmn".utf8), using: k))
        #expect(RecoveryCodes.hash("abcdefghjkmn", key: k) == expected)
    }
}

@Suite("Phone masking")
struct MFAPhoneMaskingTests {
    @Test(
        "all digits but the last four are masked; other characters stay",
        arguments: [
            ("+15555550100", "+*******0100"), ("+447700900123", "+********0123"), ("+1 555-555-0100", "+* ***-***-0100"),
            ("0100", "0100"), ("+123", "+123"), ("", ""),
        ])
    func mask(number: String, masked: String) {
        #expect(PhoneMasking.mask(number) == masked)
    }
}

extension String {
    fileprivate func replacingDashes() -> String {
        String(filter { $0 != "-" })
    }
}
