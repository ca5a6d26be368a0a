import FlintCore
import FlintServerTestSupport
import Testing

@testable import FlintServer

@Suite("RFC 3339 times as Firebase writes them")
struct RFC3339Tests {
    @Test(
        "milliseconds since epoch print exactly, to the millisecond, in UTC",
        arguments: [
            (Int64(0), "1970-01-01T00:00:00.000Z"),
            (1_764_000_000_123, "2025-11-24T16:00:00.123Z"),
            (951_782_400_005, "2000-02-29T00:00:00.005Z"),
            (4_102_444_799_999, "2099-12-31T23:59:59.999Z"),
        ])
    func exact(milliseconds: Int64, text: String) {
        #expect(RFC3339.format(milliseconds: milliseconds) == text)
    }

    @Test("what it prints parses back to the same millisecond", arguments: [Int64(0), 1_764_000_000_123, 951_782_400_005])
    func roundTrip(milliseconds: Int64) {
        #expect(RFC3339.parse(RFC3339.format(milliseconds: milliseconds))?.millisecondsSince1970 == milliseconds)
    }

    @Test(
        "the Admin SDKs' forms parse: whole seconds, offsets; anything else is refused",
        arguments: [
            ("2016-10-12T01:31:45Z", Int64(1_476_235_905_000) as Int64?),
            ("2016-10-12T03:31:45.250+02:00", 1_476_235_905_250),
            ("2016-10-12", nil),
            ("yesterday", nil),
        ])
    func parse(text: String, milliseconds: Int64?) {
        #expect(RFC3339.parse(text)?.millisecondsSince1970 == milliseconds)
    }
}
