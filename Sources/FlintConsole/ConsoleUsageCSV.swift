import FlintCore
import FlintServer
import FlintStore

/// The dashboard's usage as a CSV download (`GET /console/usage.csv?range=30d|90d|1y`): one row per UTC day of the
/// period, oldest first, every day present (zeros included), under a fixed header (``header``). RFC 4180: fields
/// separated by commas, records ended by CRLF, a field quoted when it holds a comma, a quote or a line break.
struct ConsoleUsageCSV {
    /// The columns: the day (`YYYY-MM-DD`, UTC), then each metric's count that day, summed over its labels.
    static let columns: [(name: String, metric: StatMetric?)] = [
        ("date", nil), ("sign_ins", .signIn), ("new_users", .newUser), ("sms_sent", .smsSent), ("sms_refused", .smsRefused),
        ("emails_sent", .emailSent), ("emails_failed", .emailFailed), ("errors", .error),
    ]

    /// The header line's fields.
    static var header: [String] { columns.map(\.name) }

    let dashboard: ConsoleDashboard

    /// The file's name: `flint-usage-FIRST-to-LAST.csv` (UTC days).
    var fileName: String {
        let days = dashboard.starts.map { String(RFC3339.format($0).prefix(10)) }
        return "flint-usage-\(days.first ?? "")-to-\(days.last ?? "").csv"
    }

    /// The file's text from the counts of the dashboard's range in days.
    func text(_ counts: [StatCount]) -> String {
        let index = Dictionary(uniqueKeysWithValues: dashboard.starts.enumerated().map { ($0.element, $0.offset) })
        let metrics = Self.columns.compactMap(\.metric)
        var sums = Array(repeating: [StatMetric: Int64](), count: dashboard.starts.count)
        for count in counts {
            guard let i = index[count.key.bucket] else { continue }
            sums[i][count.key.metric, default: 0] += count.count
        }
        var out = Self.record(Self.header)
        for (i, start) in dashboard.starts.enumerated() {
            out += Self.record([String(RFC3339.format(start).prefix(10))] + metrics.map { String(sums[i][$0] ?? 0) })
        }
        return out
    }

    /// One record, CRLF included.
    static func record(_ fields: [String]) -> String { fields.map(field).joined(separator: ",") + "\r\n" }

    /// A field as RFC 4180 writes it: in double quotes, its quotes doubled, when it holds a comma, a quote, CR or LF
    /// (the users export's rule).
    static func field(_ text: String) -> String { ExportedUser.escape(text) }
}
