import FlintCore
import FlintSMTP

extension Instant {
    private static let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// This instant's whole second as an HTTP date in IMF-fixdate form (RFC 9110 §5.6.7), as `Date` and `Expires`
    /// carry it: `Sun, 06 Nov 1994 08:49:37 GMT`. The calendar is the mail `Date` header's (``RFC5322Date``).
    var httpDate: String {
        let seconds = secondsSince1970
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let weekday = Self.weekdays[Int(((days % 7) + 7) % 7)]
        let (year, month, day) = RFC5322Date.civil(fromDays: days)
        func two(_ n: Int64) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let time = "\(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60))"
        return "\(weekday), \(two(day)) \(Self.months[Int(month - 1)]) \(year) \(time) GMT"
    }
}
