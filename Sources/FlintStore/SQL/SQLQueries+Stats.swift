import FlintCore

/// The dashboard's hourly counters (`stats`, keyed by hour, metric and label).
extension SQLQueries {
    func addStats(_ counts: [StatCount]) async throws {
        for count in counts where count.count != 0 {
            try await db.run(
                """
                INSERT INTO stats (hour, metric, label, n) VALUES (?, ?, ?, ?)
                ON CONFLICT (hour, metric, label) DO UPDATE SET n = stats.n + excluded.n
                """,
                [.instant(count.key.bucket), .text(count.key.metric.rawValue), .text(count.key.label), .integer(count.count)]
            )
        }
    }

    func stats(from: Instant, to: Instant, bucket: Duration) async throws -> [StatCount] {
        // The width is a number this code chose, written as a literal so both engines group on the same expression.
        let width = max(bucket.inMilliseconds, 1)
        return try await db.query(
            """
            SELECT (hour / \(width)) * \(width) AS bucket, metric, label, CAST(SUM(n) AS BIGINT) AS n FROM stats
            WHERE hour >= ? AND hour < ? GROUP BY bucket, metric, label ORDER BY bucket, metric, label
            """,
            [.instant(from), .instant(to)]
        ).map { row in
            StatCount(
                StatKey(bucket: try row.instant("bucket"), metric: StatMetric(rawValue: try row.string("metric")), label: try row.string("label")),
                count: try row.int64("n"))
        }
    }

    func deleteStats(before cutoff: Instant) async throws -> Int {
        try await db.query("DELETE FROM stats WHERE hour < ? RETURNING hour", [.instant(cutoff)]).count
    }
}
