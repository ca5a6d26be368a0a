import FlintCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The store's statements, written once for every SQL engine (placeholders `?`): the aggregates implemented here and
/// in its extensions, and those implemented for every ``SQLBacked`` type (Outbox, OobCodes, Audit, Credentials,
/// Stats, Passkeys, MFA).
struct SQLQueries: StoreTransaction, SQLBacked {
    let db: any SQLExecutor

    // MARK: Secrets, keys, config

    func masterSecret() async throws -> String? {
        try await db.first(.read("SELECT value FROM flint_secrets WHERE name = 'master'", from: .secrets))?.string("value")
    }

    func ensureMasterSecret(_ candidate: String) async throws -> String {
        if let existing = try await masterSecret() { return existing }
        try await db.run(
            .write("INSERT INTO flint_secrets (name, value) VALUES ('master', ?) ON CONFLICT (name) DO NOTHING", [.text(candidate)], into: .secrets))
        return try await masterSecret() ?? candidate
    }

    func replaceMasterSecret(_ stored: String) async throws {
        try await db.run(.write("UPDATE flint_secrets SET value = ? WHERE name = 'master'", [.text(stored)], into: .secrets))
    }

    func signingKeys() async throws -> [SigningKeyRecord] {
        try await db.query(
            .read(
                """
                SELECT kid, private_key_pem, certificate_pem, created_at, COALESCE(activates_at, created_at) AS activates_at, retired_at,
                    revoked_at FROM signing_keys ORDER BY created_at DESC
                """, from: .signingKeys)
        )
        .map { row in
            SigningKeyRecord(
                kid: try row.string("kid"), privateKeyPEM: try row.string("private_key_pem"),
                certificatePEM: try row.string("certificate_pem"), createdAt: try row.instant("created_at"),
                activatesAt: try row.instant("activates_at"), retiredAt: try row.optionalInstant("retired_at"),
                revokedAt: try row.optionalInstant("revoked_at")
            )
        }
    }

    func addSigningKey(_ key: SigningKeyRecord, retiringOthersAt retireAt: Instant?) async throws {
        if let retireAt {
            try await db.run(
                .write(
                    "UPDATE signing_keys SET retired_at = ? WHERE retired_at IS NULL OR retired_at > ?", [.instant(retireAt), .instant(retireAt)],
                    into: .signingKeys))
        }
        try await db.run(
            .write(
                """
                INSERT INTO signing_keys (kid, private_key_pem, certificate_pem, created_at, activates_at, retired_at, revoked_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    .text(key.kid), .text(key.privateKeyPEM), .text(key.certificatePEM), .instant(key.createdAt), .instant(key.activatesAt),
                    key.retiredAt.sql, key.revokedAt.sql,
                ], into: .signingKeys)
        )
    }

    func revokeSigningKey(kid: String, at now: Instant) async throws -> Bool {
        !(try await db.query(
            .write(
                "UPDATE signing_keys SET revoked_at = ?, retired_at = COALESCE(retired_at, ?) WHERE kid = ? AND revoked_at IS NULL RETURNING kid",
                [.instant(now), .instant(now), .text(kid)], into: .signingKeys)
        ).isEmpty)
    }

    func unretireSigningKeys(retiredAt instant: Instant) async throws {
        try await db.run(
            .write("UPDATE signing_keys SET retired_at = NULL WHERE retired_at = ? AND revoked_at IS NULL", [.instant(instant)], into: .signingKeys))
    }

    func replaceSigningPrivateKey(kid: String, with stored: String) async throws {
        try await db.run(.write("UPDATE signing_keys SET private_key_pem = ? WHERE kid = ?", [.text(stored), .text(kid)], into: .signingKeys))
    }

    func projectConfig() async throws -> String? {
        try await db.first(.read("SELECT document FROM project_config WHERE id = 1", from: .projectConfig))?.string("document")
    }

    func saveProjectConfig(_ json: String) async throws {
        try await db.run(
            .write(
                "INSERT INTO project_config (id, document) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET document = excluded.document", [.text(json)],
                into: .projectConfig))
    }

    // The config metadata shares the name/value table with the master secret, under its own names.

    func configMetadata(_ name: String) async throws -> String? {
        try await db.first(.read("SELECT value FROM flint_secrets WHERE name = ?", [.text("config:" + name)], from: .secrets))?.string("value")
    }

    func saveConfigMetadata(_ name: String, value: String) async throws {
        try await db.run(
            .write(
                "INSERT INTO flint_secrets (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value",
                [.text("config:" + name), .text(value)], into: .secrets))
    }

    // MARK: Code sessions

    static let sessionColumns = "id, phone_number, purpose, code_hash, created_at, expires_at, attempts, consumed_at"

    /// A session from `row`, whose session columns are named with `prefix` (beside an account's, which share some names).
    func session(from row: SQLRow, prefix: String = "") throws -> CodeSession {
        CodeSession(
            id: try row.string(prefix + "id"), phoneNumber: try row.string(prefix + "phone_number"),
            purpose: CodePurpose(rawValue: try row.string(prefix + "purpose")), codeHash: try row.string(prefix + "code_hash"),
            createdAt: try row.instant(prefix + "created_at"), expiresAt: try row.instant(prefix + "expires_at"),
            attempts: Int(try row.int64(prefix + "attempts")), consumedAt: try row.optionalInstant(prefix + "consumed_at")
        )
    }

    func codeSession(id: String) async throws -> CodeSession? {
        try await db.first(.read("SELECT \(Self.sessionColumns) FROM code_sessions WHERE id = ?", [.text(id)], from: .codeSessions)).map {
            try session(from: $0)
        }
    }

    func startCodeSession(_ candidate: CodeSession, maxAttempts: Int) async throws -> (session: CodeSession, reused: Bool) {
        let liveKey = "\(candidate.purpose.rawValue):\(candidate.phoneNumber)"
        // A session whose text is still `sending` was never reported handed over (the hand-over failed and its
        // abandonment was not written, or the node died): it is replaced, or the number would get no code until it expires.
        let pendingText = "SELECT COUNT(*) FROM outbox o WHERE o.session_id = code_sessions.id AND o.status = 'sending'"
        if let row = try await db.first(
            .read(
                "SELECT \(Self.sessionColumns), (\(pendingText)) AS unsent FROM code_sessions WHERE live_key = ?", [.text(liveKey)],
                from: .codeSessions, .outbox))
        {
            let existing = try session(from: row)
            if existing.isLive(now: candidate.createdAt, maxAttempts: maxAttempts), try row.int64("unsent") == 0 { return (existing, true) }
            try await db.run(.write("UPDATE code_sessions SET live_key = NULL WHERE id = ?", [.text(existing.id)], into: .codeSessions))
        }
        // Nothing is read back: on PostgreSQL the insert rides on the send's next statement (its counters).
        try await db.deferred(
            .write(
                """
                INSERT INTO code_sessions (id, live_key, phone_number, purpose, code_hash, created_at, expires_at, attempts)
                VALUES (?, ?, ?, ?, ?, ?, ?, 0)
                """,
                [
                    .text(candidate.id), .text(liveKey), .text(candidate.phoneNumber), .text(candidate.purpose.rawValue), .text(candidate.codeHash),
                    .instant(candidate.createdAt), .instant(candidate.expiresAt),
                ], into: .codeSessions)
        )
        return (candidate, false)
    }

    func spendCode(sessionID: String, codeHash: String, now: Instant, maxAttempts: Int) async throws -> CodeSpendOutcome {
        let spent = try await db.first(
            .write(
                Self.spendStatement + " RETURNING \(Self.sessionColumns)", Self.spendValues(sessionID, codeHash, now, maxAttempts),
                into: .codeSessions))
        if let spent { return .spent(try session(from: spent)) }
        return try await refusedSpend(sessionID: sessionID, now: now, maxAttempts: maxAttempts)
    }

    /// The one winning statement of a spend: consumes the session if the code is right and the session live.
    static let spendStatement = """
        UPDATE code_sessions SET consumed_at = ?, live_key = NULL
        WHERE id = ? AND consumed_at IS NULL AND expires_at > ? AND attempts < ? AND code_hash = ?
        """

    /// The values of ``spendStatement``'s placeholders.
    static func spendValues(_ sessionID: String, _ codeHash: String, _ now: Instant, _ maxAttempts: Int) -> [SQLValue] {
        [.instant(now), .text(sessionID), .instant(now), .integer(Int64(maxAttempts)), .text(codeHash)]
    }

    /// Why a code was not spent: no such session, expired, locked, or a wrong code (counted).
    func refusedSpend(sessionID: String, now: Instant, maxAttempts: Int) async throws -> CodeSpendOutcome {
        guard let current = try await codeSession(id: sessionID), current.consumedAt == nil else { return .notFound }
        if now >= current.expiresAt { return .expired }
        if current.attempts >= maxAttempts { return .locked }
        let counted = try await db.first(
            .write(
                "UPDATE code_sessions SET attempts = attempts + 1 WHERE id = ? AND consumed_at IS NULL RETURNING attempts", [.text(sessionID)],
                into: .codeSessions)
        )
        guard let attempts = try counted?.int64("attempts") else { return .notFound }
        return .wrongCode(attemptsLeft: max(0, maxAttempts - Int(attempts)), phoneNumber: current.phoneNumber)
    }

    func deleteCodeSessions(expiredBefore cutoff: Instant) async throws -> Int {
        try await db.query(.write("DELETE FROM code_sessions WHERE expires_at < ? RETURNING id", [.instant(cutoff)], into: .codeSessions)).count
    }

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

    func abandonCodeSession(id: String, now: Instant) async throws {
        try await db.run(
            .write("UPDATE code_sessions SET consumed_at = ?, live_key = NULL WHERE id = ?", [.instant(now), .text(id)], into: .codeSessions))
    }

    func pendingCodeMessages(now: Instant, maxAttempts: Int, phoneNumber: String?) async throws -> [OutboxMessage] {
        var binds: [SQLValue] = [.instant(now), .integer(Int64(maxAttempts))]
        var onlyTo = ""
        if let phoneNumber {
            onlyTo = "AND s.phone_number = ?"
            binds.append(.text(phoneNumber))
        }
        return try await db.query(
            .read(
                """
                SELECT \(Self.outboxColumns)
                FROM code_sessions s JOIN outbox o ON o.session_id = s.id
                WHERE s.consumed_at IS NULL AND s.expires_at > ? AND s.attempts < ? \(onlyTo)
                ORDER BY o.seq
                """,
                binds, from: .codeSessions, .outbox)
        ).map(outboxMessage(from:))

    }
}
