#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A point in time: whole milliseconds since the Unix epoch, the unit every stored instant has.
///
/// Every stored or compared time in Flint is an `Instant` and every span a `Duration`; the wire's numbers (strings of
/// milliseconds, JWT seconds, RFC 3339 text) are made from it where a response is written. Encoded (`Codable`) as the
/// bare number of milliseconds. Deliberately not `CustomStringConvertible` nor `ExpressibleByIntegerLiteral`: text and
/// numbers must name their unit (`millisecondsSince1970`, `secondsSince1970`), so `String(instant)` does not compile.
public struct Instant: Sendable, Hashable, Comparable, Codable {
    /// Milliseconds since 1970-01-01T00:00:00Z; negative before it.
    public let millisecondsSince1970: Int64

    /// The instant `milliseconds` after the epoch.
    public init(millisecondsSince1970 milliseconds: Int64) {
        millisecondsSince1970 = milliseconds
    }

    /// The instant `seconds` after the epoch, as JWT claims and the wire's `validSince` carry it (clamped to the
    /// representable range, so a huge number from outside cannot trap).
    public init(secondsSince1970 seconds: Int64) {
        let (milliseconds, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        millisecondsSince1970 = overflow ? (seconds < 0 ? .min : .max) : milliseconds
    }

    /// The instant of `date`, rounded down to its millisecond. A time within a microsecond of a whole millisecond
    /// counts as that millisecond, so that `Instant(instant.date) == instant` despite binary fractions; a date beyond
    /// the representable range is clamped to it.
    public init(_ date: Date) {
        let milliseconds = date.timeIntervalSince1970 * 1000
        let nearest = milliseconds.rounded()
        let whole = abs(milliseconds - nearest) < 0.001 ? nearest : milliseconds.rounded(.down)
        if whole >= 9.2e18 {
            millisecondsSince1970 = .max
        } else if whole <= -9.2e18 {
            millisecondsSince1970 = .min
        } else {
            millisecondsSince1970 = Int64(whole.isNaN ? 0 : whole)
        }
    }

    /// The epoch itself.
    public static let epoch = Instant(millisecondsSince1970: 0)

    /// Whole seconds since the epoch, rounded down (toward the past, also before the epoch): a JWT's `iat`, `exp`
    /// and `auth_time`, the wire's `validSince`.
    public var secondsSince1970: Int64 {
        let quotient = millisecondsSince1970 / 1000
        return millisecondsSince1970 % 1000 < 0 ? quotient - 1 : quotient
    }

    /// This instant rounded down to its whole second, the precision of the values JWTs carry.
    public var wholeSecond: Instant { Instant(secondsSince1970: secondsSince1970) }

    /// The same instant as a `Date`.
    public var date: Date { Date(timeIntervalSince1970: Double(millisecondsSince1970) / 1000) }

    public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.millisecondsSince1970 < rhs.millisecondsSince1970 }

    // Arithmetic saturates at the ends of the range instead of trapping: instants opened from sealed strings or
    // claims may be far off, and a comparison with them must still answer.

    /// The instant `span` later (`span`'s sub-millisecond part is dropped).
    public static func + (lhs: Instant, rhs: Duration) -> Instant {
        let (sum, overflow) = lhs.millisecondsSince1970.addingReportingOverflow(rhs.inMilliseconds)
        return Instant(millisecondsSince1970: overflow ? (rhs < .zero ? .min : .max) : sum)
    }

    /// The instant `span` earlier (`span`'s sub-millisecond part is dropped).
    public static func - (lhs: Instant, rhs: Duration) -> Instant {
        let (difference, overflow) = lhs.millisecondsSince1970.subtractingReportingOverflow(rhs.inMilliseconds)
        return Instant(millisecondsSince1970: overflow ? (rhs > .zero ? .min : .max) : difference)
    }

    /// The span from `rhs` to `lhs`; negative when `lhs` is earlier.
    public static func - (lhs: Instant, rhs: Instant) -> Duration {
        let (difference, overflow) = lhs.millisecondsSince1970.subtractingReportingOverflow(rhs.millisecondsSince1970)
        return .milliseconds(overflow ? (lhs < rhs ? Int64.min : .max) : difference)
    }

    /// Moves the instant `span` later.
    public static func += (lhs: inout Instant, rhs: Duration) { lhs = lhs + rhs }

    /// Moves the instant `span` earlier.
    public static func -= (lhs: inout Instant, rhs: Duration) { lhs = lhs - rhs }

    /// Decodes the bare number of milliseconds.
    public init(from decoder: any Decoder) throws {
        millisecondsSince1970 = try decoder.singleValueContainer().decode(Int64.self)
    }

    /// Encodes the bare number of milliseconds.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(millisecondsSince1970)
    }
}
