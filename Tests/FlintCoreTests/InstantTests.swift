import FlintCore
import Testing

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

@Suite("Instant")
struct InstantTests {
    private static let start = Instant(millisecondsSince1970: 1_800_000_000_250)

    @Test("adding and subtracting a Duration moves the instant by whole milliseconds")
    func durationArithmetic() {
        #expect((Self.start + .seconds(2)).millisecondsSince1970 == 1_800_000_002_250)
        #expect((Self.start - .milliseconds(251)).millisecondsSince1970 == 1_799_999_999_999)
        #expect((Self.start + .microseconds(1999)).millisecondsSince1970 == 1_800_000_000_251)
        var moved = Self.start
        moved += .seconds(60)
        moved -= .milliseconds(500)
        #expect(moved.millisecondsSince1970 == 1_800_000_059_750)
    }

    @Test("the difference of two instants is a Duration, negative when the first is earlier")
    func difference() {
        let later = Self.start + .seconds(90)
        #expect(later - Self.start == .seconds(90))
        #expect(Self.start - later == .seconds(-90))
        #expect(Self.start - Self.start == .zero)
    }

    @Test("instants order by time, before the epoch too")
    func ordering() {
        let before = Instant(millisecondsSince1970: -1)
        #expect(before < .epoch)
        #expect(Instant.epoch < Self.start)
        #expect([Self.start, .epoch, before].sorted() == [before, .epoch, Self.start])
        #expect(max(Self.start, .epoch) == Self.start)
        #expect(Instant(secondsSince1970: 1) == Instant(millisecondsSince1970: 1000))
    }

    @Test(
        "whole seconds round toward the past, as JWT iat, exp and auth_time need",
        arguments: [
            (Int64(1_800_000_000_999), Int64(1_800_000_000)), (1_800_000_001_000, 1_800_000_001), (0, 0), (999, 0), (-1, -1),
            (-1000, -1), (-1001, -2),
        ])
    func secondsFloor(milliseconds: Int64, seconds: Int64) {
        let instant = Instant(millisecondsSince1970: milliseconds)
        #expect(instant.secondsSince1970 == seconds)
        #expect(instant.wholeSecond == Instant(secondsSince1970: seconds))
        #expect(instant.wholeSecond <= instant)
    }

    @Test("a Date converts to its millisecond and back")
    func dateRoundTrip() {
        let date = Date(timeIntervalSince1970: 1_800_000_000.2507)
        #expect(Instant(date).millisecondsSince1970 == 1_800_000_000_250)
        #expect(Instant(Self.start.date) == Self.start)
        let early = Instant(millisecondsSince1970: -86_400_001)
        #expect(Instant(early.date) == early)
        #expect(Instant(Date(timeIntervalSince1970: -0.0005)).millisecondsSince1970 == -1)
    }

    @Test("arithmetic far from the epoch saturates instead of trapping")
    func saturation() {
        let far = Instant(secondsSince1970: .max)
        #expect(far.millisecondsSince1970 == .max)
        #expect(Instant(secondsSince1970: .min).millisecondsSince1970 == .min)
        #expect((far + .seconds(1)).millisecondsSince1970 == .max)
        #expect((Instant(millisecondsSince1970: .min) - .seconds(1)).millisecondsSince1970 == .min)
        #expect(Instant(millisecondsSince1970: .min) - far < .zero)
        #expect(far - Instant(millisecondsSince1970: .min) > .seconds(1_000_000))
        #expect(Instant(millisecondsSince1970: .min).secondsSince1970 == Int64.min / 1000 - 1)
        #expect(Instant(millisecondsSince1970: .max).secondsSince1970 == Int64.max / 1000)
        #expect((Instant.epoch + .seconds(Int64.max)).millisecondsSince1970 == .max)
        #expect((Instant.epoch - .seconds(Int64.max)).millisecondsSince1970 == -Int64.max)
        #expect(Instant(Date(timeIntervalSince1970: 1e300)).millisecondsSince1970 == .max)
        #expect(Instant(Date(timeIntervalSince1970: -1e300)).millisecondsSince1970 == .min)
    }

    @Test("Codable writes the bare number of milliseconds")
    func codable() throws {
        let data = try JSONEncoder().encode([Self.start])
        #expect(String(decoding: data, as: UTF8.self) == "[1800000000250]")
        #expect(try JSONDecoder().decode([Instant].self, from: data) == [Self.start])
    }
}
