import FlintCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// How the audit log is laid out for its hot path (migration 14): the sign-in's transaction appends a `SIGN_IN` event,
/// so the table is ordered by its sequence number alone and its secondary indexes leave sign-ins out where they can.
enum AuditLayout {
    /// The condition of the partial kind index: every kind but `SIGN_IN`, which a listing finds by walking the sequence.
    /// A query by another kind repeats it word for word, which is how SQLite and PostgreSQL know the index applies.
    static let kindIndexCondition = "kind <> '\(AuditKind.signIn.rawValue)'"

    /// How far apart two nodes' clocks may be. Sequence numbers grow in the order events are committed while their
    /// instants come from the deciding node's clock, so a time bound found by bisecting the sequence is widened by
    /// this much before the exact `at` condition applies.
    static let clockSlack: Duration = .seconds(300)
}

/// Statements of the audit log, for every SQL-backed store: appending, listing newest first with keyset pages, and the
/// retention sweep.
extension AuditWrites where Self: SQLBacked {
    func appendAuditEvent(_ event: AuditEvent) async throws {
        let detail = String(decoding: JSONValue.object(event.detail).serialized(sortingKeys: true), as: UTF8.self)
        try await db.deferred(
            .write(
                "INSERT INTO audit_events (at, kind, uid, ip, actor, detail) VALUES (?, ?, ?, ?, ?, ?)",
                [.instant(event.at), .text(event.kind.rawValue), event.uid.sql, event.ip.sql, event.actor.sql, .text(detail)], into: .auditEvents)
        )
    }

    func auditEvents(_ query: AuditQuery) async throws -> [AuditEvent] {
        var filter = SQLFilter()
        filter.add("uid = ?", query.uid.map(SQLValue.text))
        if let kind = query.kind {
            filter.add("kind = ?", .text(kind.rawValue))
            if kind != .signIn { filter.add(AuditLayout.kindIndexCondition, binding: []) }
        }
        if let since = query.since {
            guard let first = try await firstAuditEventID(atOrAfter: since - AuditLayout.clockSlack) else { return [] }
            filter.add("id >= ?", .integer(first))
            filter.add("at >= ?", .instant(since))
        }
        if let until = query.until {
            if let end = try await firstAuditEventID(atOrAfter: until + AuditLayout.clockSlack) { filter.add("id < ?", .integer(end)) }
            filter.add("at < ?", .instant(until))
        }
        filter.add("id < ?", query.beforeID.map(SQLValue.integer))
        filter.binds.append(.integer(Int64(max(0, query.limit))))
        return try await db.query(
            .read(
                "SELECT id, at, kind, uid, ip, actor, detail FROM audit_events \(filter.clause) ORDER BY id DESC LIMIT ?", filter.binds,
                from: .auditEvents)
        ).map(auditEvent(from:))
    }

    /// An event from its row (`id, at, kind, uid, ip, actor, detail`).
    func auditEvent(from row: SQLRow) throws -> AuditEvent {
        let detail = try JSONValue(parsing: try row.string("detail").utf8)
        return AuditEvent(
            id: try row.int64("id"), at: try row.instant("at"), kind: AuditKind(rawValue: try row.string("kind")),
            uid: try row.optionalString("uid"),
            ip: try row.optionalString("ip"), actor: try row.optionalString("actor"), detail: detail.objectValue ?? [:])
    }

    /// Deletes the events before `cutoff` up to the first event at or after it (older events past a clock step wait
    /// for a later sweep; a newer one is never deleted).
    func deleteAuditEvents(before cutoff: Instant) async throws -> Int {
        var filter = SQLFilter()
        filter.add("id < ?", try await firstAuditEventID(atOrAfter: cutoff).map(SQLValue.integer))
        filter.add("at < ?", .instant(cutoff))
        return try await db.query(.write("DELETE FROM audit_events \(filter.clause) RETURNING id", filter.binds, into: .auditEvents)).count
    }

    /// The sequence number of the first event at or after `instant`, or `nil` when every event is older, found by
    /// bisecting the sequence (instants grow with it, up to ``AuditLayout/clockSlack``): a few dozen primary-key
    /// lookups instead of an index on the instant that every sign-in would write.
    func firstAuditEventID(atOrAfter instant: Instant) async throws -> Int64? {
        // Two subqueries: each is one primary-key seek, where `MIN(id), MAX(id)` in one select would read the table.
        let bounds = try await db.first(
            .read("SELECT (SELECT MIN(id) FROM audit_events) AS low, (SELECT MAX(id) FROM audit_events) AS high", from: .auditEvents))
        guard let bounds, let first = try bounds.optionalInt64("low"), let last = try bounds.optionalInt64("high") else { return nil }
        var (low, high) = (first, last + 1)
        var found: Int64?
        while low < high {
            let middle = low + (high - low) / 2
            guard
                let row = try await db.first(
                    .read("SELECT id, at FROM audit_events WHERE id >= ? ORDER BY id LIMIT 1", [.integer(middle)], from: .auditEvents))

            else {
                high = middle
                continue
            }
            let id = try row.int64("id")
            if try row.instant("at") >= instant {
                (found, high) = (id, middle)
            } else {
                low = id + 1
            }
        }
        return found
    }
}
