package import FlintCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// RFC 3339 timestamps in UTC with milliseconds, as Firebase writes `lastRefreshAt`, `enrolledAt` and
/// `finalizeEnrollmentTime`.
package enum RFC3339 {
    private static let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt)

    /// `2026-11-22T04:30:00.123Z` for a time in milliseconds since epoch.
    package static func format(milliseconds ms: Int64) -> String {
        // Half a millisecond in: the formatter truncates, and `ms / 1000` as a Double may land just below the
        // intended millisecond.
        style.format(Date(timeIntervalSince1970: (Double(ms) + 0.5) / 1000))
    }

    /// `2026-11-22T04:30:00.123Z` for `instant`.
    package static func format(_ instant: Instant) -> String { format(milliseconds: instant.millisecondsSince1970) }

    /// The instant of an RFC 3339 timestamp (`2022-01-02T03:04:05.678Z`, `…+02:00`, `t` and `z`
    /// in lower case too; fractions beyond milliseconds are cut), as protobuf's `Timestamp` is written in JSON;
    /// `nil` for anything else.
    static func parse(_ text: String) -> Instant? {
        let b = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= b.count else { return nil }
            var n = 0
            for i in range {
                guard (48...57).contains(b[i]) else { return nil }
                n = n * 10 + Int(b[i] - 48)
            }
            return n
        }
        guard b.count >= 20, b[4] == 45, b[7] == 45, b[10] == 84 || b[10] == 116, b[13] == 58, b[16] == 58,
            let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), let hour = number(11..<13),
            let minute = number(14..<16), let second = number(17..<19),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var i = 19
        var millis = 0
        if b[i] == 46 {
            i += 1
            var digits = 0
            while i < b.count, (48...57).contains(b[i]) {
                if digits < 3 { millis = millis * 10 + Int(b[i] - 48) }
                digits += 1
                i += 1
            }
            guard digits > 0 else { return nil }
            if digits < 3 { for _ in digits..<3 { millis *= 10 } }
        }
        var offset = 0
        guard i < b.count else { return nil }
        if b[i] == 90 || b[i] == 122 {
            i += 1
        } else if b[i] == 43 || b[i] == 45, b.count >= i + 6, b[i + 3] == 58, let h = number(i + 1..<i + 3), let m = number(i + 4..<i + 6) {
            offset = (h * 60 + m) * (b[i] == 43 ? 1 : -1)
            i += 6
        } else {
            return nil
        }
        guard i == b.count else { return nil }
        // Days from the civil date (Howard Hinnant's algorithm), the inverse of `format(milliseconds:)`.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146_097 + doe - 719_468
        let seconds = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second) - Int64(offset * 60)
        return Instant(millisecondsSince1970: seconds * 1000 + Int64(millis))
    }
}

/// The RFC 3339 timestamps of second factors' `enrolledAt` in imports and exports.
package enum ImportTimestamp {
    /// `2021-02-03T04:05:06.789Z` for `instant`.
    package static func format(_ instant: Instant) -> String { RFC3339.format(instant) }

    /// The instant, or `nil` for a text that is not an RFC 3339 timestamp.
    package static func parse(_ text: String) -> Instant? { RFC3339.parse(text) }
}
