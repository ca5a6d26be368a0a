/// The audit log's account index (migration 24), for every SQL-backed store. A sign-in's transaction appends its event
/// to `audit_events` alone, which writes the table's last page; an index by account would add a page at a random place
/// to every sign-in's commit. So `audit_uid_events` (an event's number and account, with an index on both) is filled
/// after commit in batches (``AuthStore/catchUpAuditIndex(batch:maxBatches:)``), and `audit_uid_progress` says up to
/// which number it is complete: an account's listing reads the index up to there and the log's key past it.
///
/// Nothing is lost: events are committed with what they record; a crash before a catch-up, or a catch-up that fails,
/// leaves them past the progress, where listings read them from the log and the next catch-up indexes them.
extension AuditWrites where Self: SQLBacked {
    func auditIndexHorizon() async throws -> Int64 {
        if db.dialect == .postgresql {
            // An event's number is drawn by its insert, which holds the table in ROW EXCLUSIVE mode until its transaction
            // ends; SHARE mode waits for those, so no number up to the newest one seen here can still commit later.
            try await db.run(.command("SET LOCAL lock_timeout = '5s'"))
            try await db.run(.command("LOCK TABLE audit_events IN SHARE MODE"))
        }
        return try await db.first(.read("SELECT MAX(id) AS id FROM audit_events", from: .auditEvents))?.optionalInt64("id") ?? 0
    }

    func indexAuditEvents(through horizon: Int64, limit: Int) async throws -> Int {
        let progress = try await auditIndexProgress()
        guard horizon > progress, limit > 0 else { return 0 }
        let batch = try await db.first(
            .read(
                """
                SELECT COUNT(*) AS n, MAX(id) AS last FROM (SELECT id FROM audit_events WHERE id > ? AND id <= ? ORDER BY id LIMIT ?) AS batch
                """, [.integer(progress), .integer(horizon), .integer(Int64(limit))], from: .auditEvents))
        let passed = Int(try batch?.int64("n") ?? 0)
        let last = try batch?.optionalInt64("last")
        // A full batch ends at its last event; a shorter one reached the horizon (numbers in between were rolled back).
        let end = passed == limit ? last ?? horizon : horizon
        try await db.run(
            .write(
                """
                INSERT INTO audit_uid_events (id, uid) SELECT id, uid FROM audit_events WHERE id > ? AND id <= ? AND uid IS NOT NULL
                ON CONFLICT (id) DO NOTHING
                """, [.integer(progress), .integer(end)], into: .auditUIDEvents, reading: .auditEvents))
        try await db.run(
            .write(
                "UPDATE audit_uid_progress SET indexed_through = ? WHERE indexed_through < ?", [.integer(end), .integer(end)],
                into: .auditUIDProgress))
        return passed
    }

    func auditIndexIsBehind() async throws -> Bool {
        let row = try await db.first(
            .read(
                "SELECT (SELECT MAX(id) FROM audit_events) AS newest, (SELECT indexed_through FROM audit_uid_progress) AS progress",
                from: .auditEvents, .auditUIDProgress))
        guard let row, let newest = try row.optionalInt64("newest") else { return false }
        return newest > (try row.optionalInt64("progress") ?? 0)
    }

    /// The number up to which the account index is complete.
    func auditIndexProgress() async throws -> Int64 {
        try await db.first(.read("SELECT indexed_through FROM audit_uid_progress", from: .auditUIDProgress))?.int64("indexed_through") ?? 0
    }

    /// The events of `uid` numbered in `range` (at most the index's progress), from the account index, newest first.
    func indexedAuditEvents(_ query: AuditQuery, uid: String, in range: AuditIDRange, limit: Int) async throws -> [AuditEvent] {
        guard !range.isEmpty, limit > 0 else { return [] }
        var filter = SQLFilter()
        filter.add("x.uid = ?", .text(uid))
        filter.add("x.id >= ?", .integer(range.low))
        filter.add("x.id < ?", .integer(range.high))
        filter.add("e.kind = ?", query.kind.map { .text($0.rawValue) })
        filter.add("e.at >= ?", query.since.map(SQLValue.instant))
        filter.add("e.at < ?", query.until.map(SQLValue.instant))
        filter.binds.append(.integer(Int64(limit)))
        let columns = AuditLayout.columns.split(separator: ", ").map { "e.\($0) AS \($0)" }.joined(separator: ", ")
        // CROSS JOIN keeps SQLite on the account index first (PostgreSQL reads it as an inner join).
        return try await db.query(
            .read(
                "SELECT \(columns) FROM audit_uid_events x CROSS JOIN audit_events e \(filter.clause) AND e.id = x.id ORDER BY x.id DESC LIMIT ?",
                filter.binds, from: .auditUIDEvents, .auditEvents)
        ).map(auditEvent(from:))
    }

    /// After the retention sweep: drops the index's entries of deleted events, and when the log is empty starts the
    /// progress over (SQLite numbers an empty table's next row 1).
    func forgetDeletedAuditEvents() async throws {
        try await db.run(
            .write(
                "DELETE FROM audit_uid_events WHERE id < COALESCE((SELECT MIN(id) FROM audit_events), ?)", [.integer(.max)],
                into: .auditUIDEvents, reading: .auditEvents))
        try await db.run(
            .write(
                "UPDATE audit_uid_progress SET indexed_through = 0 WHERE (SELECT MIN(id) FROM audit_events) IS NULL", into: .auditUIDProgress,
                reading: .auditEvents))
    }
}
