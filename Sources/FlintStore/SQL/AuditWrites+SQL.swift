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

    /// An event's columns, as ``AuditWrites/auditEvent(from:)`` reads them.
    static let columns = "id, at, kind, uid, ip, actor, detail"
}

/// The sequence numbers a listing reads: `low ..< high`.
struct AuditIDRange {
    var low: Int64
    var high: Int64

    var isEmpty: Bool { low >= high }

    /// The part at or above `bound`.
    func from(_ bound: Int64) -> AuditIDRange { AuditIDRange(low: max(low, bound), high: high) }

    /// The part below `bound`.
    func below(_ bound: Int64) -> AuditIDRange { AuditIDRange(low: low, high: min(high, bound)) }
}

/// Statements of the audit log, for every SQL-backed store: appending, listing newest first with keyset pages, and the
/// retention sweep.
extension AuditWrites where Self: SQLBacked {
    func appendAuditEvent(_ event: AuditEvent) async throws {
        let detail = String(decoding: JSONValue.object(event.detail).serialized(sortingKeys: true), as: UTF8.self)
        try await db.deferred(
            .write(
                "INSERT INTO audit_events (at, kind, uid, ip, actor, detail, tenant_id) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    .instant(event.at), .text(event.kind.rawValue), event.uid.sql, event.ip.sql, event.actor.sql, .text(detail),
                    .text(event.tenant.rawValue),
                ], into: .auditEvents)
        )
    }

    func auditEvents(_ query: AuditQuery) async throws -> [AuditEvent] {
        guard let range = try await auditIDRange(query) else { return [] }
        // An account's events are walked on the account index, a tenant's on the tenant index; the project's own (the
        // default tenant's, which no index holds) and every tenant's on the log's key, as the other filters.
        guard let index = AuditIndexKey(query) else { return try await auditLogEvents(query, in: range, limit: query.limit) }
        // The newest events may be past the indexes' progress: those are read from the log first.
        let progress = try await auditIndexProgress()
        var events = try await auditLogEvents(query, in: range.from(progress + 1), limit: query.limit)
        if events.count < query.limit {
            events += try await indexedAuditEvents(query, on: index, in: range.below(progress + 1), limit: query.limit - events.count)
        }
        return events
    }

    /// The sequence numbers `query` can match: its page's end, and its time filters' bounds found by bisecting the
    /// sequence (widened by the clock slack; the exact `at` conditions apply on top); `nil` when none can.
    func auditIDRange(_ query: AuditQuery) async throws -> AuditIDRange? {
        var range = AuditIDRange(low: 0, high: query.beforeID ?? .max)
        if let since = query.since {
            guard let first = try await firstAuditEventID(atOrAfter: since - AuditLayout.clockSlack) else { return nil }
            range.low = first
        }
        if let until = query.until, let end = try await firstAuditEventID(atOrAfter: until + AuditLayout.clockSlack) {
            range.high = min(range.high, end)
        }
        return range
    }

    /// The events of `query` numbered in `range`, read from the log by its key, newest first.
    func auditLogEvents(_ query: AuditQuery, in range: AuditIDRange, limit: Int) async throws -> [AuditEvent] {
        guard !range.isEmpty, limit > 0 else { return [] }
        var filter = SQLFilter()
        filter.add("id >= ?", range.low > 0 ? .integer(range.low) : nil)
        filter.add("id < ?", .integer(range.high))
        filter.add("uid = ?", query.uid.map(SQLValue.text))
        filter.add("tenant_id = ?", query.tenant.map { .text($0.rawValue) })
        if let kind = query.kind {
            filter.add("kind = ?", .text(kind.rawValue))
            if kind != .signIn { filter.add(AuditLayout.kindIndexCondition, binding: []) }
        }
        filter.add("at >= ?", query.since.map(SQLValue.instant))
        filter.add("at < ?", query.until.map(SQLValue.instant))
        filter.binds.append(.integer(Int64(limit)))
        return try await db.query(
            .read("SELECT \(AuditLayout.columns) FROM audit_events \(filter.clause) ORDER BY id DESC LIMIT ?", filter.binds, from: .auditEvents)
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
        let deleted = try await db.query(.write("DELETE FROM audit_events \(filter.clause) RETURNING id", filter.binds, into: .auditEvents)).count
        if deleted > 0 { try await forgetDeletedAuditEvents() }
        return deleted
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
