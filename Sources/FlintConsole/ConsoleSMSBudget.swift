import FlintCore
import FlintServer
import FlintStore

/// Today's SMS (the UTC day the daily budget counts) by destination country against `flint.smsLimits`: a chart of the
/// texts sent and refused per country, the busiest first, with the daily budget drawn as a line
/// (``ConsoleChart/limit``), and a table of each country's texts, its share of the budget and its busiest hour
/// against the per-country hourly cap. The numbers are the dashboard's counters (``StatsTally``), which count what
/// the limits count; the limits themselves are exact counters of their own, so the two may differ by a second's texts.
struct ConsoleSMSBudget {
    /// Countries drawn on their own before the rest are summed as `other`.
    static let countriesShown = 12

    let limits: ProjectConfig.SMSLimits
    /// Today's start (UTC).
    let day: Instant
    /// Today's hourly counts of texts sent and refused, by country.
    let counts: [StatCount]

    /// The range of hours read: today so far.
    static func range(now: Instant) -> (from: Instant, to: Instant) {
        let day = StatsTally.start(of: now, bucket: .seconds(86_400))
        return (day, day + .seconds(86_400))
    }

    private struct Country {
        var sent: Int64 = 0
        var refused: Int64 = 0
        var hours: [Instant: Int64] = [:]
    }

    /// The section's data: the chart, the table's rows and a note on the limits.
    var data: [String: Any] {
        var countries: [String: Country] = [:]
        for count in counts {
            let label = count.key.label.isEmpty ? "unknown" : count.key.label
            if count.key.metric == .smsSent {
                countries[label, default: Country()].sent += count.count
                countries[label, default: Country()].hours[count.key.bucket, default: 0] += count.count
            } else if count.key.metric == .smsRefused {
                countries[label, default: Country()].refused += count.count
            }
        }
        let sorted = countries.sorted { ($0.value.sent, $0.value.refused, $1.key) > ($1.value.sent, $1.value.refused, $0.key) }
        let shown = sorted.prefix(Self.countriesShown)
        let rest = sorted.dropFirst(Self.countriesShown)
        var names = shown.map(\.key)
        var sent = shown.map(\.value.sent)
        var refused = shown.map(\.value.refused)
        if !rest.isEmpty {
            names.append("other")
            sent.append(rest.reduce(0) { $0 + $1.value.sent })
            refused.append(rest.reduce(0) { $0 + $1.value.refused })
        }
        let date = String(RFC3339.format(day).prefix(10))
        var chart = ConsoleChart(
            id: "sms-budget", title: "SMS today (\(date), UTC) by country", buckets: names.map { ($0, $0) },
            series: [.init(name: "sent", style: "ok", values: sent), .init(name: "refused", style: "bad", values: refused)],
            period: "today (\(date), UTC)")
        if limits.dailyBudget > 0 { chart.limit = (limits.dailyBudget, "Daily budget") }
        let rows: [[String: Any]] = sorted.map { country, counts in
            let busiest = counts.hours.max { ($0.value, $1.key) < ($1.value, $0.key) }
            return [
                "country": country, "sent": counts.sent, "refused": counts.refused,
                "share": limits.dailyBudget > 0 ? Self.percent(counts.sent, of: limits.dailyBudget) : "no budget",
                "busiest": busiest.map { "\($0.value) at \(RFC3339.format($0.key).dropFirst(11).prefix(5))" } ?? "none",
                "cap": limits.perCountryPerHour > 0 ? String(limits.perCountryPerHour) : "off",
            ]
        }
        let total = sorted.reduce(0) { $0 + $1.value.sent }
        let budget = limits.dailyBudget > 0 ? "\(limits.dailyBudget) texts per UTC day in all" : "no daily budget (0 turns it off)"
        let cap = limits.perCountryPerHour > 0 ? "\(limits.perCountryPerHour) per country per hour" : "no per-country cap"
        return [
            "chart": chart.data, "rows": rows,
            "note": "Limits (Settings › SMS limits): \(budget); \(cap). \(total) sent today.",
        ]
    }

    /// `part` as a percentage of `whole`, to one decimal (`12.5 %`).
    static func percent(_ part: Int64, of whole: Int64) -> String {
        let tenths = (part * 1000 + whole / 2) / whole
        return "\(tenths / 10).\(tenths % 10) %"
    }
}

extension ConsoleRoutes {
    /// Today's SMS by country against the configured limits.
    func smsBudget() async throws -> ConsoleSMSBudget {
        let node = flow.node
        let (from, to) = ConsoleSMSBudget.range(now: node.clock.now())
        let counts = try await node.store.read { try await $0.stats(from: from, to: to, bucket: .seconds(3600)) }
        return ConsoleSMSBudget(
            limits: node.config.current.smsLimits, day: from, counts: counts.filter { $0.key.metric == .smsSent || $0.key.metric == .smsRefused })
    }
}
