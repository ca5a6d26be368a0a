import FlintCore
import FlintTesting
import Testing

@Suite("CBOR decoding: the strict subset WebAuthn uses")
struct CBORTests {
    @Test("integers, strings, arrays, maps and simple values decode from RFC 8949's examples")
    func decodesExamples() throws {
        #expect(try CBORDecoder.decode([0x00]) == .unsigned(0))
        #expect(try CBORDecoder.decode([0x17]) == .unsigned(23))
        #expect(try CBORDecoder.decode([0x18, 0x18]) == .unsigned(24))
        #expect(try CBORDecoder.decode([0x19, 0x03, 0xe8]) == .unsigned(1000))
        #expect(try CBORDecoder.decode([0x1b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]) == .unsigned(.max))
        #expect(try CBORDecoder.decode([0x20]).int == -1)
        #expect(try CBORDecoder.decode([0x39, 0x01, 0x00]).int == -257)
        #expect(try CBORDecoder.decode([0x43, 1, 2, 3]) == .bytes([1, 2, 3]))
        #expect(try CBORDecoder.decode([0x64, 0x49, 0x45, 0x54, 0x46]) == .text("IETF"))
        #expect(try CBORDecoder.decode([0x83, 0x01, 0x02, 0x03]) == .array([.unsigned(1), .unsigned(2), .unsigned(3)]))
        #expect(try CBORDecoder.decode([0xa2, 0x01, 0x02, 0x03, 0x04])[3] == .unsigned(4))
        #expect(try CBORDecoder.decode([0xf4]) == .bool(false))
        #expect(try CBORDecoder.decode([0xf5]) == .bool(true))
        #expect(try CBORDecoder.decode([0xf6]) == .null)
    }

    @Test("what the test encoder writes decodes to the same item")
    func roundTrips() throws {
        let item = CBOR.map([
            (.text("fmt"), .text("packed")), (.int(-3), .bytes([9, 8, 7])),
            (.text("list"), .array([.int(-257), .int(70000), .int(5_000_000_000), .bool(true), .null])),
        ])
        #expect(try CBORDecoder.decode(item.encoded) == item)
    }

    @Test(
        "malformed input throws and never traps",
        arguments: [
            ([], "empty"),
            ([0x18], "argument cut short"),
            ([0x19, 0x01], "two-byte argument cut short"),
            ([0x44, 1, 2], "byte string past the end"),
            ([0x5b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff], "huge byte string length"),
            ([0x9b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff], "huge array count"),
            ([0xbb, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff], "huge map count"),
            ([0x5f, 0x41, 0x00, 0xff], "indefinite byte string"),
            ([0x9f, 0x01, 0xff], "indefinite array"),
            ([0xc2, 0x41, 0x01], "tag"),
            ([0xf9, 0x3c, 0x00], "half float"),
            ([0xfb, 0, 0, 0, 0, 0, 0, 0, 0], "double"),
            ([0xf7], "undefined"),
            ([0x1c], "reserved additional information"),
            ([0x62, 0xff, 0xfe], "text that is not UTF-8"),
            ([0xa2, 0x01, 0x02, 0x01, 0x03], "duplicate map key"),
            ([0xa1, 0x01], "map value missing"),
            ([0x01, 0x02], "trailing bytes"),
        ] as [([UInt8], String)])
    func refusesMalformed(bytes: [UInt8], _ why: String) {
        #expect(throws: CBORError.self) { try CBORDecoder.decode(bytes) }
    }

    @Test("nesting deeper than the limit is refused")
    func refusesDeepNesting() {
        let deep = [UInt8](repeating: 0x81, count: 200) + [0x00]
        #expect(throws: CBORError.self) { try CBORDecoder.decode(deep) }
        let shallow = [UInt8](repeating: 0x81, count: 5) + [0x00]
        #expect((try? CBORDecoder.decode(shallow)) != nil)
    }

    @Test("random and truncated bytes never trap")
    func fuzz() {
        var generator = SystemRandomNumberGenerator()
        let valid = CBOR.map([(.text("fmt"), .text("none")), (.text("attStmt"), .map([])), (.text("authData"), .bytes([1, 2, 3]))]).encoded
        for cut in 0..<valid.count { _ = try? CBORDecoder.decode(Array(valid[..<cut])) }
        for _ in 0..<2000 {
            let bytes = (0..<Int.random(in: 0...40, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            _ = try? CBORDecoder.decode(bytes)
        }
    }
}
