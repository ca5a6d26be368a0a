#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// RFC 3339 timestamps in UTC with milliseconds, as Firebase writes `lastRefreshAt`, `enrolledAt` and
/// `finalizeEnrollmentTime`.
enum RFC3339 {
    private static let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt)
    private static let wholeSeconds = Date.ISO8601FormatStyle(timeZone: .gmt)

    /// `2026-11-22T04:30:00.123Z` for a time in milliseconds since epoch.
    static func format(milliseconds ms: Int64) -> String {
        // Half a millisecond in: the formatter truncates, and `ms / 1000` as a Double may land just below the
        // intended millisecond.
        style.format(Date(timeIntervalSince1970: (Double(ms) + 0.5) / 1000))
    }

    /// Milliseconds since the epoch for an RFC 3339 timestamp (`2016-10-12T01:31:45.000Z`, with or without a
    /// fraction, `Z` or a `±hh:mm` offset), as the Admin SDKs send a second factor's `enrolledAt`; `nil` otherwise.
    static func parse(_ text: String) -> Int64? {
        guard let date = (try? style.parse(text)) ?? (try? wholeSeconds.parse(text)) else { return nil }
        return Int64((date.timeIntervalSince1970 * 1000).rounded())
    }
}
