import FlintCore
import FlintServer
import FlintStore

/// The console's dashboard: the store's hourly counters (``StatsTally``, the same events `/metrics` counts) over the
/// last 24 hours by hour or the last 30 days, 90 days or year by UTC day, shaped into charts (``ConsoleChart``) and totals.
struct ConsoleDashboard {
    /// How long the store keeps the hourly counters (``StatsTally/retention``): the longest period shown (a year), and
    /// a month of margin.
    static let retention = StatsTally.retention
    /// Labels a chart shows on their own before summing the rest as `other`.
    static let seriesShown = 5

    /// A period the dashboard shows.
    enum Period: String, CaseIterable {
        case day = "24h"
        case month = "30d"
        case quarter = "90d"
        case year = "1y"

        /// How the page names it.
        var title: String {
            switch self {
            case .day: "Last 24 hours"
            case .month: "Last 30 days"
            case .quarter: "Last 90 days"
            case .year: "Last year"
            }
        }
        /// How the summaries name it.
        var phrase: String { self == .year ? "the last 365 days" : "the " + title.lowercased() }
        /// Its buckets' width.
        var bucket: Duration { self == .day ? .seconds(3600) : .seconds(86_400) }
        /// How many buckets, the current one last.
        var count: Int {
            switch self {
            case .day: 24
            case .month: 30
            case .quarter: 90
            case .year: 365
            }
        }
        /// The periods counted in UTC days, which the CSV download offers.
        static let daily: [Period] = [.month, .quarter, .year]
    }

    let period: Period
    /// Each bucket's start, oldest first; the last holds `now`.
    let starts: [Instant]

    /// The buckets of `period` up to the one holding `now`.
    init(period: Period, now: Instant) {
        self.period = period
        let last = StatsTally.start(of: now, bucket: period.bucket)
        starts = (0..<period.count).reversed().map { last - period.bucket * $0 }
    }

    /// Where the store is read: from the first bucket's start to the end of the last.
    var range: (from: Instant, to: Instant) { (starts.first ?? .epoch, (starts.last ?? .epoch) + period.bucket) }

    /// The page's data from the counts of ``range`` in buckets of the period's width.
    func page(_ counts: [StatCount]) -> [String: Any] {
        let index = Dictionary(uniqueKeysWithValues: starts.enumerated().map { ($0.element, $0.offset) })
        var byMetric: [StatMetric: [String: [Int64]]] = [:]
        for count in counts {
            guard let i = index[count.key.bucket] else { continue }
            byMetric[count.key.metric, default: [:]][count.key.label, default: Array(repeating: 0, count: starts.count)][i] += count.count
        }
        func labelled(_ metric: StatMetric) -> [ConsoleChart.Series] { series(byMetric[metric] ?? [:]) }
        func summed(_ metric: StatMetric, _ name: String, _ style: String) -> ConsoleChart.Series {
            let values = (byMetric[metric] ?? [:]).values.reduce(Array(repeating: Int64(0), count: starts.count)) { zip($0, $1).map(+) }
            return ConsoleChart.Series(name: name, style: style, values: values)
        }
        let charts = [
            chart("sign-ins", "Sign-ins by method", labelled(.signIn)),
            chart("new-users", "New users by sign-in method", labelled(.newUser)),
            chart("sms-sent", "SMS codes sent by country", labelled(.smsSent)),
            chart("sms-refused", "SMS codes refused by country", labelled(.smsRefused)),
            chart("emails", "Emails sent and failed", [summed(.emailSent, "sent", "ok"), summed(.emailFailed, "failed", "bad")]),
            chart("errors", "Error answers by code", labelled(.error)),
        ]
        func total(_ metric: StatMetric) -> Int64 { (byMetric[metric] ?? [:]).values.reduce(0) { $0 + $1.reduce(0, +) } }
        let tiles: [[String: Any]] = [
            ("Sign-ins", StatMetric.signIn), ("New users", .newUser), ("SMS sent", .smsSent), ("SMS refused", .smsRefused),
            ("Emails sent", .emailSent), ("Emails failed", .emailFailed), ("Errors", .error),
        ].map { ["name": $0.0, "value": total($0.1)] }
        let periods: [[String: Any]] = Period.allCases.map {
            ["href": "/console/dashboard?range=\($0.rawValue)", "title": $0.title, "current": $0 == period]
        }
        var data: [String: Any] = ["charts": charts.map(\.data), "tiles": tiles, "periods": periods, "period": period.title]
        let downloadable = Period.daily.contains(period) ? period : .month
        data["csv"] = ["href": "/console/usage.csv?range=\(downloadable.rawValue)", "period": downloadable.phrase]
        return data
    }

    /// A chart of this period's buckets.
    private func chart(_ id: String, _ title: String, _ series: [ConsoleChart.Series]) -> ConsoleChart {
        var chart = ConsoleChart(id: id, title: title, buckets: starts.enumerated().map(bucketName), series: series, period: period.phrase)
        if period == .quarter || period == .year {
            let months = starts.map { String(RFC3339.format($0).prefix(7)) }
            chart.tableGroup = { months[$0] }
        }
        return chart
    }

    /// One series per label, the busiest first, past ``seriesShown`` summed as `other`.
    private func series(_ labels: [String: [Int64]]) -> [ConsoleChart.Series] {
        let sorted = labels.sorted { ($0.value.reduce(0, +), $1.key) > ($1.value.reduce(0, +), $0.key) }
        var shown = sorted.prefix(Self.seriesShown).enumerated().map { i, entry in
            ConsoleChart.Series(name: entry.key.isEmpty ? "none" : entry.key, style: "s\(i)", values: entry.value)
        }
        let rest = sorted.dropFirst(Self.seriesShown)
        if !rest.isEmpty {
            let values = rest.reduce(Array(repeating: Int64(0), count: starts.count)) { zip($0, $1.value).map(+) }
            shown.append(ConsoleChart.Series(name: "other", style: "other", values: values))
        }
        return shown
    }

    /// A month's axis label, short enough for a year's twelve on a half-width chart: `Feb`, or the year in January.
    static func monthTick(_ date: String) -> String {
        let month = Int(date.dropFirst(5).prefix(2)) ?? 1
        return month == 1 ? String(date.prefix(4)) : ["Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][month - 2]
    }

    /// A bucket's name (`2026-11-26 13:00`, `2026-11-26`) and its axis label: every third hour, every fifth or
    /// fifteenth day, the first day of each month over a year.
    private func bucketName(_ i: Int, _ start: Instant) -> (name: String, tick: String?) {
        let text = RFC3339.format(start)
        let date = String(text.prefix(10))
        let time = String(text.dropFirst(11).prefix(5))
        let fromLast = starts.count - 1 - i
        switch period {
        case .day: return ("\(date) \(time)", fromLast % 3 == 0 ? time : nil)
        case .month: return (date, fromLast % 5 == 0 ? String(date.dropFirst(5)) : nil)
        case .quarter: return (date, fromLast % 15 == 0 ? String(date.dropFirst(5)) : nil)
        case .year: return (date, date.hasSuffix("-01") ? Self.monthTick(date) : nil)
        }
    }
}
