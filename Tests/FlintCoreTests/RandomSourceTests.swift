import FlintCore
import Testing

@Suite("Randomness")
struct RandomSourceTests {
    @Test("bytes come in the asked number and differ between calls")
    func bytes() {
        let r = SystemRandom()
        #expect(r.bytes(0).isEmpty)
        #expect(r.bytes(1).count == 1)
        #expect(r.bytes(33).count == 33)
        #expect(r.bytes(32) != r.bytes(32))
    }

    @Test("user IDs are 28 characters of [A-Za-z0-9], and every character of the alphabet turns up")
    func alphanumeric() {
        let r = SystemRandom()
        var seen = Set<Character>()
        var ids = Set<String>()
        for _ in 0..<500 {
            let id = r.alphanumericID()
            #expect(id.count == 28)
            #expect(id.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) })
            seen.formUnion(id)
            ids.insert(id)
        }
        #expect(seen.count == 62)
        #expect(ids.count == 500)
    }

    @Test("a source that keeps drawing high bytes still yields a full ID")
    func rejection() {
        struct MostlyHigh: RandomSource {
            func bytes(_ count: Int) -> [UInt8] { (0..<count).map { $0 == 0 ? 7 : 250 } }
        }
        #expect(MostlyHigh().alphanumericID(length: 3) == "HHH")
    }
}
