public import FlintCore

/// Which audit events to list: filters, and where the previous page ended.
public struct AuditQuery: Sendable, Equatable {
    /// Only the events of this account.
    public var uid: String?
    /// Only the events of this tenant (``TenantID/default``: the project's own, which name no tenant); `nil`: every
    /// tenant's. A tenant's events come from the tenant index and, past its progress, from the log itself.
    public var tenant: TenantID?
    /// Only events of this kind.
    public var kind: AuditKind?
    /// Only events at or after this instant.
    public var since: Instant?
    /// Only events before this instant.
    public var until: Instant?
    /// Only events older than this one (the last of the previous page), by its sequence number.
    public var beforeID: Int64?
    /// At most this many events.
    public var limit: Int

    /// A query; every filter is optional.
    public init(
        uid: String? = nil, tenant: TenantID? = nil, kind: AuditKind? = nil, since: Instant? = nil, until: Instant? = nil, beforeID: Int64? = nil,
        limit: Int = 100
    ) {
        (self.uid, self.tenant, self.kind, self.since, self.until, self.beforeID, self.limit) = (uid, tenant, kind, since, until, beforeID, limit)
    }
}

/// The audit log of security events, newest first, with its retention. Queries.
public protocol AuditReads: Sendable {
    /// The events matching `query`, newest first: in the reverse order of their sequence numbers, which grow as events
    /// are committed (their instants follow, up to the clock differences between nodes). An account's events come
    /// from the account index and, past its progress, from the log itself: complete whether or not it caught up.
    func auditEvents(_ query: AuditQuery) async throws -> [AuditEvent]
    /// Whether an event was committed past the progress of the account and tenant indexes (a catch-up has work).
    func auditIndexIsBehind() async throws -> Bool
}

/// The audit log of security events. Writes, inside a transaction.
public protocol AuditWrites: AuditReads {
    /// Appends an event in the caller's transaction (it is kept only if the transaction commits).
    func appendAuditEvent(_ event: AuditEvent) async throws
    /// Deletes the events older than `cutoff`; returns how many.
    func deleteAuditEvents(before cutoff: Instant) async throws -> Int
    /// The sequence number up to which every event is committed or rolled back, in a transaction of its own: the
    /// newest event's on SQLite (one writer); PostgreSQL first waits for the transactions appending events to end.
    func auditIndexHorizon() async throws -> Int64
    /// Adds up to `limit` events after the indexes' progress and up to `horizon` (an ``auditIndexHorizon()``) to the
    /// account index (events with an account) and the tenant index (events of a tenant), and moves their progress past
    /// them; returns how many events it passed (`0`: caught up).
    func indexAuditEvents(through horizon: Int64, limit: Int) async throws -> Int
}

extension AuditWrites {
    /// Appends an event of the request in progress (``AuditOrigin/current``): `kind` for `uid` at `at`.
    public func audit(_ kind: AuditKind, uid: String?, at: Instant, _ detail: [String: JSONValue] = [:]) async throws {
        try await appendAuditEvent(AuditOrigin.current.event(kind, uid: uid, at: at, detail))
    }
}
