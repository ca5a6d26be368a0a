public import FlintCore
public import FlintStore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The audit log as operators read it, through `GET /flint/v1/projects/{p}/auditEvents` and `flint audit list`: the
/// same filters (`uid`, `kind`, `since`, `until`, and a tenant's events alone), newest first, in keyset pages (`pageSize`, `pageToken`), in
/// Firebase-style JSON.
public enum AuditListing {
    /// Events per page when none is asked for.
    public static let defaultPageSize = 100
    /// The most events one page holds.
    public static let maxPageSize = 1000

    /// The filters as given (query parameters or command-line options); `nil` or empty means none.
    public struct Filter: Sendable {
        public var uid: String?
        /// One of ``FlintStore/AuditKind/all``.
        public var kind: String?
        /// RFC 3339 (`2026-01-31T12:00:00Z`) or milliseconds since the epoch; inclusive.
        public var since: String?
        /// RFC 3339 or milliseconds since the epoch; exclusive.
        public var until: String?
        /// 1 to ``maxPageSize``; default ``defaultPageSize``.
        public var pageSize: String?
        /// The previous page's `nextPageToken`.
        public var pageToken: String?
        /// Only the events of this tenant (``FlintStore/TenantID/default``: the project's own); `nil`: every tenant's.
        public var tenant: TenantID?

        /// Filters.
        public init(
            uid: String? = nil, kind: String? = nil, since: String? = nil, until: String? = nil, pageSize: String? = nil, pageToken: String? = nil,
            tenant: TenantID? = nil
        ) {
            (self.uid, self.kind, self.since, self.until, self.pageSize, self.pageToken) = (uid, kind, since, until, pageSize, pageToken)
            self.tenant = tenant
        }
    }

    /// One page: its events, newest first, and the token of the next page when more may follow.
    public struct Page: Sendable {
        public var events: [AuditEvent]
        public var nextPageToken: String?

        /// The page as the endpoint answers it: `{"auditEvents": [...], "nextPageToken": "..."}`.
        public var json: JSONValue {
            var out: [String: JSONValue] = ["auditEvents": .array(events.map(AuditListing.json))]
            if let nextPageToken { out["nextPageToken"] = .string(nextPageToken) }
            return .object(out)
        }
    }

    /// Reads one page of the log.
    /// - Throws: ``FlintCore/AuthError`` `INVALID_ARGUMENT` for a malformed filter, `INVALID_PAGE_SELECTION` for a
    ///   page token that is not one this listing gave.
    public static func page(_ filter: Filter, in store: any AuthStore) async throws -> Page {
        let query = try query(filter)
        // One more than asked tells whether another page follows.
        var probing = query
        probing.limit = query.limit + 1
        let probe = probing
        let found = try await store.read { try await $0.auditEvents(probe) }
        let events = Array(found.prefix(query.limit))
        let next = found.count > query.limit ? events.last.flatMap(token) : nil
        return Page(events: events, nextPageToken: next)
    }

    /// The store query for `filter`.
    static func query(_ filter: Filter) throws(AuthError) -> AuditQuery {
        var query = AuditQuery(tenant: filter.tenant, limit: defaultPageSize)
        query.uid = nonEmpty(filter.uid)
        if let kind = nonEmpty(filter.kind) {
            guard let known = AuditKind.all.first(where: { $0.rawValue == kind }) else {
                throw AuthError.invalidArgument("kind must be one of \(AuditKind.all.map(\.rawValue).joined(separator: ", "))")
            }
            query.kind = known
        }
        if let since = nonEmpty(filter.since) { query.since = try instant(since, "since") }
        if let until = nonEmpty(filter.until) { query.until = try instant(until, "until") }
        if let size = nonEmpty(filter.pageSize) {
            guard let n = Int(size), (1...maxPageSize).contains(n) else {
                throw AuthError.invalidArgument("pageSize must be a number from 1 to \(maxPageSize)")
            }
            query.limit = n
        }
        if let text = nonEmpty(filter.pageToken) {
            // "<at>.<id>": the instant is no longer needed (pages follow the sequence) but tokens keep their shape.
            let parts = Base64URL.decode(text).map { String(decoding: $0, as: UTF8.self).split(separator: ".") } ?? []
            guard parts.count == 2, Int64(parts[0]) != nil, let id = Int64(parts[1]) else {
                throw AuthError(code: "INVALID_PAGE_SELECTION", detail: "The page token is not one this listing gave.")
            }
            query.beforeID = id
        }
        return query
    }

    /// The token of the page after `event`.
    private static func token(after event: AuditEvent) -> String? {
        event.id.map { Base64URL.encode(Array("\(event.at.millisecondsSince1970).\($0)".utf8)) }
    }

    /// An instant given as milliseconds since the epoch or in RFC 3339.
    private static func instant(_ text: String, _ name: String) throws(AuthError) -> Instant {
        if let ms = Int64(text), ms >= 0 { return Instant(millisecondsSince1970: ms) }
        let fractional = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt)
        let whole = Date.ISO8601FormatStyle(timeZone: .gmt)
        guard let date = (try? fractional.parse(text)) ?? (try? whole.parse(text)) else {
            throw AuthError.invalidArgument("\(name) must be an RFC 3339 time (2026-01-31T12:00:00Z) or milliseconds since the epoch")
        }
        return Instant(date)
    }

    private static func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        return text
    }

    /// One event as the endpoint answers it: `id` and `atMillis` as strings (int64, as Firebase writes them),
    /// `eventTime` in RFC 3339, `localId`, `ip` and `actor` when known, and its `detail`.
    public static func json(_ event: AuditEvent) -> JSONValue {
        var out: [String: JSONValue] = [
            "kind": .string(event.kind.rawValue), "eventTime": .string(RFC3339.format(event.at)),
            "atMillis": .string(String(event.at.millisecondsSince1970)), "detail": .object(event.detail),
        ]
        if let id = event.id { out["id"] = .string(String(id)) }
        if let uid = event.uid { out["localId"] = .string(uid) }
        if let ip = event.ip { out["ip"] = .string(ip) }
        if let actor = event.actor { out["actor"] = .string(actor) }
        return .object(out)
    }
}
