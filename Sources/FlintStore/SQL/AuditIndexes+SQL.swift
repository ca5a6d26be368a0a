/// The audit log's account and tenant indexes (migrations 24 and 32), for every SQL-backed store. A sign-in's
/// transaction appends its event to `audit_events` alone, which writes the table's last page; an index by account or by
/// tenant would add a page at another place to every sign-in's commit. So `audit_uid_events` (an event's number and
/// account) and `audit_tenant_events` (an event's number and tenant, for the events of tenants only: a project without
/// tenants writes none) are filled after commit in batches (``AuthStore/catchUpAuditIndex(batch:maxBatches:)``), and
/// `audit_uid_progress` says up to which number both are complete: an account's or a tenant's listing reads its index
/// up to there and the log's key past it.
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
                """
                INSERT INTO audit_tenant_events (id, tenant_id) SELECT id, tenant_id FROM audit_events WHERE id > ? AND id <= ? AND tenant_id <> ''
                ON CONFLICT (id) DO NOTHING
                """, [.integer(progress), .integer(end)], into: .auditTenantEvents, reading: .auditEvents))
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

    /// The number up to which the account and tenant indexes are complete.
    func auditIndexProgress() async throws -> Int64 {
        try await db.first(.read("SELECT indexed_through FROM audit_uid_progress", from: .auditUIDProgress))?.int64("indexed_through") ?? 0
    }

    /// The events of `query` numbered in `range` (at most the indexes' progress), walked on `index`, newest first.
    func indexedAuditEvents(_ query: AuditQuery, on index: AuditIndexKey, in range: AuditIDRange, limit: Int) async throws -> [AuditEvent] {
        guard !range.isEmpty, limit > 0 else { return [] }
        var filter = SQLFilter()
        filter.add("x.\(index.column) = ?", index.value)
        filter.add("x.id >= ?", .integer(range.low))
        filter.add("x.id < ?", .integer(range.high))
        // An account's listing in a tenant: the account index, the tenant checked on each event.
        if case .account = index { filter.add("e.tenant_id = ?", query.tenant.map { .text($0.rawValue) }) }
        filter.add("e.kind = ?", query.kind.map { .text($0.rawValue) })
        filter.add("e.at >= ?", query.since.map(SQLValue.instant))
        filter.add("e.at < ?", query.until.map(SQLValue.instant))
        filter.binds.append(.integer(Int64(limit)))
        let columns = AuditLayout.columns.split(separator: ", ").map { "e.\($0) AS \($0)" }.joined(separator: ", ")
        // CROSS JOIN keeps SQLite on the index first (PostgreSQL reads it as an inner join).
        return try await db.query(
            .read(
                "SELECT \(columns) FROM \(index.table.rawValue) x CROSS JOIN audit_events e \(filter.clause) AND e.id = x.id ORDER BY x.id DESC LIMIT ?",
                filter.binds, from: index.table, .auditEvents)
        ).map(auditEvent(from:))
    }

    /// After the retention sweep: drops the indexes' entries of deleted events (a range of their keys), and when the
    /// log is empty starts the progress over (SQLite numbers an empty table's next row 1).
    func forgetDeletedAuditEvents() async throws {
        for index in [SQLTable.auditUIDEvents, .auditTenantEvents] {
            try await db.run(
                .write(
                    "DELETE FROM \(index.rawValue) WHERE id < COALESCE((SELECT MIN(id) FROM audit_events), ?)", [.integer(.max)],
                    into: index, reading: .auditEvents))
        }
        try await db.run(
            .write(
                "UPDATE audit_uid_progress SET indexed_through = 0 WHERE (SELECT MIN(id) FROM audit_events) IS NULL", into: .auditUIDProgress,
                reading: .auditEvents))
    }
}

/// One of the audit log's after-commit indexes, and the value a listing walks it by.
enum AuditIndexKey {
    /// `audit_uid_events`: the events of an account.
    case account(String)
    /// `audit_tenant_events`: the events of a tenant (never the default one's, which it does not hold).
    case tenant(TenantID)

    /// The index `query` is walked on: its account's, else its tenant's; `nil` for a listing of the log's key.
    init?(_ query: AuditQuery) {
        if let uid = query.uid {
            self = .account(uid)
        } else if let tenant = query.tenant, !tenant.isDefault {
            self = .tenant(tenant)
        } else {
            return nil
        }
    }

    var table: SQLTable {
        switch self {
        case .account: .auditUIDEvents
        case .tenant: .auditTenantEvents
        }
    }

    /// The column the index is keyed by, before the event's number.
    var column: String {
        switch self {
        case .account: "uid"
        case .tenant: "tenant_id"
        }
    }

    var value: SQLValue {
        switch self {
        case .account(let uid): .text(uid)
        case .tenant(let tenant): .text(tenant.rawValue)
        }
    }
}
