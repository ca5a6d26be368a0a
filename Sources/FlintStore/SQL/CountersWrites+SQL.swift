import FlintCore

/// The shared abuse counters (`rate_counters`, one row per key and window), for every SQL-backed store: atomic
/// upserts, one statement for several windows, and on PostgreSQL a reservation checked by the statement itself.
extension CountersWrites where Self: SQLBacked {
    func incrementCounter(key: CounterKey, windowStart: Instant, expiresAt: Instant) async throws -> Int64 {
        let row = try await db.first(
            .write(
                """
                INSERT INTO rate_counters (counter_key, window_start, hits, expires_at) VALUES (?, ?, 1, ?)
                ON CONFLICT (counter_key, window_start) DO UPDATE SET hits = rate_counters.hits + 1
                RETURNING hits
                """,
                [.text(key.rawValue), .instant(windowStart), .instant(expiresAt)], into: .rateCounters)
        )
        return try row?.int64("hits") ?? 0
    }

    func incrementCounters(_ windows: [(key: CounterKey, windowStart: Instant, expiresAt: Instant)]) async throws -> [Int64] {
        // One upsert cannot touch a row twice: a repeated window (never among one send's limits) goes one at a time.
        let named = windows.map { (key: $0.key, windowStart: $0.windowStart) }
        guard windows.count > 1, !Self.repeatsAWindow(named) else {
            var totals: [Int64] = []
            for w in windows { totals.append(try await incrementCounter(key: w.key, windowStart: w.windowStart, expiresAt: w.expiresAt)) }
            return totals
        }
        let rows = try await db.query(
            .write(
                """
                INSERT INTO rate_counters (counter_key, window_start, hits, expires_at) VALUES \(Array(repeating: "(?, ?, 1, ?)", count: windows.count).joined(separator: ", "))
                ON CONFLICT (counter_key, window_start) DO UPDATE SET hits = rate_counters.hits + 1
                RETURNING counter_key, window_start, hits
                """,
                windows.flatMap { [SQLValue.text($0.key.rawValue), .instant($0.windowStart), .instant($0.expiresAt)] }, into: .rateCounters)
        )
        return try Self.hits(rows, in: named)
    }

    /// Whether a counter window stands twice in `windows`: one upsert cannot touch a row twice.
    private static func repeatsAWindow(_ windows: [(key: CounterKey, windowStart: Instant)]) -> Bool {
        Set(windows.map { "\($0.key.rawValue)\u{0}\($0.windowStart.millisecondsSince1970)" }).count != windows.count
    }

    /// The `hits` of `rows` (`counter_key`, `window_start`, `hits`) in the order of `windows`, 0 for a window without a row.
    private static func hits(_ rows: [SQLRow], in windows: [(key: CounterKey, windowStart: Instant)]) throws -> [Int64] {
        var hits: [String: [Instant: Int64]] = [:]
        for row in rows { hits[try row.string("counter_key"), default: [:]][try row.instant("window_start")] = try row.int64("hits") }
        return windows.map { hits[$0.key.rawValue]?[$0.windowStart] ?? 0 }
    }

    func reserveCounters(_ windows: [CounterReservation]) async throws -> [Int64] {
        let named = windows.map { (key: $0.key, windowStart: $0.windowStart) }
        guard db.dialect == .postgresql, !windows.isEmpty, !Self.repeatsAWindow(named) else {
            // The hits, then the check: a refusal thrown here rolls the transaction back.
            let hits = try await incrementCounters(windows.map { ($0.key, $0.windowStart, $0.expiresAt) })
            if let past = zip(windows, hits).first(where: { $1 > $0.max }) { throw CounterPastLimit(key: past.0.key) }
            return hits
        }
        // The hits and the check in one statement: past a maximum, `flint_past_limit` (migration 16) raises, and the
        // statement — with the writes it carries — leaves nothing.
        let caps = Array(repeating: "(?::bigint, ?::text, ?::bigint, ?::bigint, ?::bigint)", count: windows.count).joined(separator: ", ")
        let rows = try await db.query(
            SQLStatement(
                with: [
                    "flint_caps (ord, counter_key, window_start, expires_at, max_hits) AS (VALUES \(caps))",
                    """
                    flint_counted AS (
                        INSERT INTO rate_counters (counter_key, window_start, hits, expires_at)
                        SELECT counter_key, window_start, 1, expires_at FROM flint_caps
                        ON CONFLICT (counter_key, window_start) DO UPDATE SET hits = rate_counters.hits + 1
                        RETURNING counter_key, window_start, hits)
                    """,
                ],
                """
                SELECT n.counter_key, n.window_start, n.hits,
                    (SELECT flint_past_limit(c.counter_key) FROM flint_caps c
                        JOIN flint_counted p ON p.counter_key = c.counter_key AND p.window_start = c.window_start
                        WHERE p.hits > c.max_hits ORDER BY c.ord LIMIT 1) AS past
                FROM flint_counted n
                """,
                windows.enumerated().flatMap { i, w in
                    [SQLValue.integer(Int64(i)), .text(w.key.rawValue), .instant(w.windowStart), .instant(w.expiresAt), .integer(w.max)]
                }, tables: [], effect: .write(.rateCounters)
            ).closing)
        return try Self.hits(rows, in: named)
    }

    func releaseCounter(key: CounterKey, windowStart: Instant) async throws {
        try await db.run(
            .write(
                "UPDATE rate_counters SET hits = hits - 1 WHERE counter_key = ? AND window_start = ? AND hits > 0",
                [.text(key.rawValue), .instant(windowStart)],
                into: .rateCounters))
    }

    func counterValue(key: CounterKey, windowStart: Instant) async throws -> Int64 {
        try await db.first(
            .read(
                "SELECT hits FROM rate_counters WHERE counter_key = ? AND window_start = ?", [.text(key.rawValue), .instant(windowStart)],
                from: .rateCounters)
        )?.int64("hits") ?? 0
    }

    func counterValues(_ windows: [(key: CounterKey, windowStart: Instant)]) async throws -> [Int64] {
        guard !windows.isEmpty else { return [] }
        let condition = Array(repeating: "(counter_key = ? AND window_start = ?)", count: windows.count).joined(separator: " OR ")
        let rows = try await db.query(
            .read(
                "SELECT counter_key, window_start, hits FROM rate_counters WHERE \(condition)",
                windows.flatMap { [SQLValue.text($0.key.rawValue), .instant($0.windowStart)] }, from: .rateCounters))
        return try Self.hits(rows, in: windows)
    }

    func deleteCounters(expiredBefore cutoff: Instant) async throws -> Int {
        try await db.query(.write("DELETE FROM rate_counters WHERE expires_at < ? RETURNING counter_key", [.instant(cutoff)], into: .rateCounters))
            .count
    }
}
