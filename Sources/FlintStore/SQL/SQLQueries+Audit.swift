import FlintCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Statements of the audit log: appending, listing newest first with keyset pages, and the retention sweep.
extension SQLQueries {
    func appendAuditEvent(_ event: AuditEvent) async throws {
        let detail = String(decoding: JSONValue.object(event.detail).serialized(sortingKeys: true), as: UTF8.self)
        try await db.run(
            "INSERT INTO audit_events (at, kind, uid, ip, actor, detail) VALUES (?, ?, ?, ?, ?, ?)",
            [.instant(event.at), .text(event.kind.rawValue), event.uid.sql, event.ip.sql, event.actor.sql, .text(detail)]
        )
    }

    func auditEvents(_ query: AuditQuery) async throws -> [AuditEvent] {
        var filter = SQLFilter()
        filter.add("uid = ?", query.uid.map(SQLValue.text))
        filter.add("kind = ?", query.kind.map { .text($0.rawValue) })
        filter.add("at >= ?", query.since.map(SQLValue.instant))
        filter.add("at < ?", query.until.map(SQLValue.instant))
        if let before = query.before {
            filter.add("(at < ? OR (at = ? AND id < ?))", binding: [.instant(before.at), .instant(before.at), .integer(before.id)])
        }
        filter.binds.append(.integer(Int64(max(0, query.limit))))
        return try await db.query(
            "SELECT id, at, kind, uid, ip, actor, detail FROM audit_events \(filter.clause) ORDER BY at DESC, id DESC LIMIT ?", filter.binds
        ).map { row in
            let detail = try JSONValue(parsing: try row.string("detail").utf8)
            return AuditEvent(
                id: try row.int64("id"), at: try row.instant("at"), kind: AuditKind(rawValue: try row.string("kind")),
                uid: try row.optionalString("uid"),
                ip: try row.optionalString("ip"), actor: try row.optionalString("actor"), detail: detail.objectValue ?? [:])
        }
    }

    func deleteAuditEvents(before cutoff: Instant) async throws -> Int {
        try await db.query("DELETE FROM audit_events WHERE at < ? RETURNING id", [.instant(cutoff)]).count
    }
}
