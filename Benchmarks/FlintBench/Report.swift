/// One scenario's figures, from all clients' tallies merged.
struct Report: Sendable {
    let scenario: Scenario
    let operations: Int
    let opsPerSecond: Double
    let p50: Double  // milliseconds
    let p90: Double
    let p99: Double
    let max: Double
    let errors: Int
    let warmupErrors: Int
    let errorSamples: [String]
    let extra: [String: Double]

    init(scenario: Scenario, tallies: [ClientTally], measured: Duration, extra: [String: Double]) {
        var all: [Int64] = []
        all.reserveCapacity(tallies.reduce(0) { $0 + $1.latencies.count })
        for tally in tallies { all.append(contentsOf: tally.latencies) }
        all.sort()
        self.scenario = scenario
        operations = all.count
        opsPerSecond = Double(all.count) / (Double(measured.nanoseconds) / 1e9)
        p50 = Self.percentile(all, 0.50)
        p90 = Self.percentile(all, 0.90)
        p99 = Self.percentile(all, 0.99)
        max = all.last.map { Double($0) / 1e6 } ?? 0
        errors = tallies.reduce(0) { $0 + $1.errors }
        warmupErrors = tallies.reduce(0) { $0 + $1.warmupErrors }
        errorSamples = Array(tallies.flatMap(\.samples).prefix(ClientTally.maxSamples))
        self.extra = extra
    }

    /// Nearest-rank percentile of sorted nanoseconds, in milliseconds.
    static func percentile(_ sorted: [Int64], _ q: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let rank = Int((q * Double(sorted.count)).rounded(.up))
        return Double(sorted[Swift.max(0, Swift.min(sorted.count - 1, rank - 1))]) / 1e6
    }

    var humanLine: String {
        var line =
            "\(scenario.rawValue): \(operations) ops, \(fixed(opsPerSecond, 1)) ops/s, "
            + "p50 \(fixed(p50, 2)) ms, p90 \(fixed(p90, 2)) ms, p99 \(fixed(p99, 2)) ms, max \(fixed(max, 2)) ms, errors \(errors)"
        if warmupErrors > 0 { line += " (+\(warmupErrors) during warm-up)" }
        if let lookups = extra["code_lookups"] {
            line +=
                "; \(Int(lookups)) code lookups, avg \(fixed(extra["code_lookup_avg_ms"] ?? 0, 2)) ms, "
                + "avg \(fixed(extra["code_lookup_avg_entries"] ?? 0, 1)) codes listed"
        }
        if let sign = extra["client_sign_us"] { line += "; client signing avg \(fixed(sign, 1)) µs per sign-in" }
        return line
    }

    func jsonLine(concurrency: Int, threads: Int, executor: String) -> String {
        var fields: [(String, String)] = [
            ("scenario", "\"\(scenario.rawValue)\""), ("concurrency", String(concurrency)), ("client_threads", String(threads)),
            ("client_executor", "\"\(executor)\""), ("ops", String(operations)), ("ops_per_s", fixed(opsPerSecond, 2)),
            ("p50_ms", fixed(p50, 3)), ("p90_ms", fixed(p90, 3)), ("p99_ms", fixed(p99, 3)), ("max_ms", fixed(max, 3)),
            ("errors", String(errors)), ("warmup_errors", String(warmupErrors)),
        ]
        for key in extra.keys.sorted() { fields.append((key, fixed(extra[key] ?? 0, 3))) }
        return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }

    static func table(_ reports: [Report]) -> String {
        let header = ["scenario", "ops", "ops/s", "p50 ms", "p90 ms", "p99 ms", "errors"]
        let rows = reports.map {
            [
                $0.scenario.rawValue, String($0.operations), fixed($0.opsPerSecond, 1), fixed($0.p50, 2), fixed($0.p90, 2), fixed($0.p99, 2),
                String($0.errors),
            ]
        }
        let widths = header.indices.map { i in ([header[i]] + rows.map { $0[i] }).map(\.count).max() ?? 0 }
        func format(_ row: [String]) -> String {
            row.indices.map { i in
                let pad = String(repeating: " ", count: widths[i] - row[i].count)
                return i == 0 ? row[i] + pad : pad + row[i]
            }.joined(separator: "  ")
        }
        return ([format(header)] + rows.map(format)).joined(separator: "\n")
    }
}

/// `value` with exactly `digits` decimals (no Foundation formatting needed).
func fixed(_ value: Double, _ digits: Int) -> String {
    guard value.isFinite else { return "0" }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let scaled = (abs(value) * scale).rounded()
    let whole = Int(scaled / scale)
    let frac = Int(scaled - Double(whole) * scale)
    let sign = value < 0 && scaled != 0 ? "-" : ""
    if digits == 0 { return sign + String(whole) }
    let fracText = String(frac)
    return sign + String(whole) + "." + String(repeating: "0", count: digits - fracText.count) + fracText
}
