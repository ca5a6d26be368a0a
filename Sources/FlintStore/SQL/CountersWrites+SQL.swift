import FlintCore

/// The shared abuse counters (`rate_counters`, one row per key and window), for every SQL-backed store: atomic
/// upserts, one statement for several windows, and on PostgreSQL a reservation checked by the statement itself.
extension CountersWrites where Self: SQLBacked {
    func incrementCounter(key: CounterKey, windowStart: Instant, expiresAt: Instant) async throws -> Int64 {
        let row = try await db.first(
            .write(
                """
                INSERT INTO rate_counters (counter_key, window_start, hits, expires_at) VALUES (?, ?, 1, ?)
                ON CONFLICT (counter_key, window_start) DO UPDATE SET hits = rate_counters.hits + 1, \(Self.laterExpiry)
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
                ON CONFLICT (counter_key, window_start) DO UPDATE SET hits = rate_counters.hits + 1, \(Self.laterExpiry)
                RETURNING counter_key, window_start, hits
                """,
                windows.flatMap { [SQLValue.text($0.key.rawValue), .instant($0.windowStart), .instant($0.expiresAt)] }, into: .rateCounters)
        )
        return try Self.hits(rows, in: named)
    }

    /// A hit keeps its window at least until the hit's own expiry: the windows of a fixed length all share one, and the
    /// account lockout's count, one window from the epoch, lives on past the latest failure.
    private static var laterExpiry: String {
        "expires_at = CASE WHEN excluded.expires_at > rate_counters.expires_at THEN excluded.expires_at ELSE rate_counters.expires_at END"
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
                        ON CONFLICT (counter_key, window_start) DO UPDATE SET hits = rate_counters.hits + 1, \(Self.laterExpiry)
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

    func releaseCounters(_ windows: [(key: CounterKey, windowStart: Instant)]) async throws {
        guard windows.count > 1, !Self.repeatsAWindow(windows) else {
            for w in windows { try await releaseCounter(key: w.key, windowStart: w.windowStart) }
            return
        }
        let condition = Array(repeating: "(counter_key = ? AND window_start = ?)", count: windows.count).joined(separator: " OR ")
        try await db.run(
            .write(
                "UPDATE rate_counters SET hits = hits - 1 WHERE (\(condition)) AND hits > 0",
                windows.flatMap { [SQLValue.text($0.key.rawValue), .instant($0.windowStart)] }, into: .rateCounters))
    }

    func lockAccount(_ lock: AccountLock) async throws {
        try await db.run(
            .write(
                """
                INSERT INTO account_locks (tenant_id, email, failures, locked_at, locked_until) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (tenant_id, email) DO UPDATE SET failures = excluded.failures, locked_at = excluded.locked_at,
                    locked_until = excluded.locked_until
                """,
                [.text(lock.tenant.rawValue), .text(lock.email), .integer(lock.failures), .instant(lock.lockedAt), .instant(lock.lockedUntil)],
                into: .accountLocks))
    }

    func clearAccountFailures(tenant: TenantID, email: String) async throws -> AccountLock? {
        try await db.run(
            .write(
                "DELETE FROM rate_counters WHERE counter_key = ?", [.text(CounterKey.accountFailures(tenant: tenant, email: email).rawValue)],
                into: .rateCounters))
        return try await db.first(
            .write(
                "DELETE FROM account_locks WHERE tenant_id = ? AND email = ? RETURNING tenant_id, email, failures, locked_at, locked_until",
                [.text(tenant.rawValue), .text(email)], into: .accountLocks)
        ).map(Self.accountLock)
    }

    func deleteAccountLocks(endedBefore cutoff: Instant) async throws -> Int {
        try await db.query(.write("DELETE FROM account_locks WHERE locked_until < ? RETURNING email", [.instant(cutoff)], into: .accountLocks))
            .count
    }

    func accountLocks(tenant: TenantID, emails: [String]) async throws -> [AccountLock] {
        try await forEachSlice(of: emails, leading: [.text(tenant.rawValue)]) { list, binds in
            .read(
                "SELECT tenant_id, email, failures, locked_at, locked_until FROM account_locks WHERE tenant_id = ? AND email IN (\(list))",
                binds, from: .accountLocks)
        }.map(Self.accountLock)
    }

    /// A lock from its row.
    private static func accountLock(_ row: SQLRow) throws -> AccountLock {
        AccountLock(
            tenant: TenantID(rawValue: try row.string("tenant_id")), email: try row.string("email"), failures: try row.int64("failures"),
            lockedAt: try row.instant("locked_at"),
            lockedUntil: try row.instant("locked_until"))
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
