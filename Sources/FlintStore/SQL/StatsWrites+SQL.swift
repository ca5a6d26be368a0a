import FlintCore

/// The dashboard's hourly counters (`stats`, keyed by hour, metric and label), for every SQL-backed store.
extension StatsWrites where Self: SQLBacked {
    func addStats(_ counts: [StatCount]) async throws {
        // One row per key (a row may not be updated twice by one statement), as multi-row upserts of up to 100 rows:
        // a node's once-a-second flush is one statement.
        var merged: [StatKey: Int64] = [:]
        var order: [StatKey] = []
        for count in counts where count.count != 0 {
            if merged[count.key] == nil { order.append(count.key) }
            merged[count.key, default: 0] += count.count
        }
        order.removeAll { merged[$0] == 0 }
        for start in stride(from: 0, to: order.count, by: 100) {
            let keys = order[start..<min(start + 100, order.count)]
            try await db.run(
                .write(
                    "INSERT INTO stats (hour, metric, label, n) VALUES "
                        + Array(repeating: "(?, ?, ?, ?)", count: keys.count).joined(separator: ", ")
                        + " ON CONFLICT (hour, metric, label) DO UPDATE SET n = stats.n + excluded.n",
                    keys.flatMap { key in
                        [SQLValue.instant(key.bucket), .text(key.metric.rawValue), .text(key.label), .integer(merged[key] ?? 0)]
                    }, into: .stats)
            )
        }
    }

    func stats(from: Instant, to: Instant, bucket: Duration) async throws -> [StatCount] {
        // The width is a number this code chose, written as a literal so both engines group on the same expression.
        let width = max(bucket.inMilliseconds, 1)
        return try await db.query(
            .read(
                """
                SELECT (hour / \(width)) * \(width) AS bucket, metric, label, CAST(SUM(n) AS BIGINT) AS n FROM stats
                WHERE hour >= ? AND hour < ? GROUP BY bucket, metric, label ORDER BY bucket, metric, label
                """,
                [.instant(from), .instant(to)], from: .stats)
        ).map { row in
            StatCount(
                StatKey(bucket: try row.instant("bucket"), metric: StatMetric(rawValue: try row.string("metric")), label: try row.string("label")),
                count: try row.int64("n"))
        }
    }

    func deleteStats(before cutoff: Instant) async throws -> Int {
        try await db.query(.write("DELETE FROM stats WHERE hour < ? RETURNING hour", [.instant(cutoff)], into: .stats))
            .count
    }
}
