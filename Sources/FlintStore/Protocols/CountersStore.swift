public import FlintCore

/// Shared abuse counters: fixed windows, one atomic hit at a time, exact across nodes. Queries. A counter of something
/// single-use (a session handle, a ticket) has one window, starting at ``Instant/epoch``, that lasts until it expires.
public protocol CountersReads: Sendable {
    /// The hits counted so far for `key` in the window starting at `windowStart`; 0 when none.
    func counterValue(key: CounterKey, windowStart: Instant) async throws -> Int64
    /// The hits of several counters, in the order of `windows` (0 for a counter without any), read in one statement:
    /// a sign-in checks its limits with one round trip to the database instead of one per limit.
    func counterValues(_ windows: [(key: CounterKey, windowStart: Instant)]) async throws -> [Int64]
    /// The account locks of `emails` in `tenant` (held or run out, not yet swept), in one statement.
    func accountLocks(tenant: TenantID, emails: [String]) async throws -> [AccountLock]
}

/// Shared abuse counters: fixed windows, one atomic hit at a time, exact across nodes. Writes, inside a transaction.
public protocol CountersWrites: CountersReads {
    /// Adds one hit to the counter `key` for the window starting at `windowStart` and returns the window's
    /// total, counted exactly across every node sharing the store (one atomic upsert). The row may be swept after
    /// `expiresAt`. Abuse limits are built on this.
    func incrementCounter(key: CounterKey, windowStart: Instant, expiresAt: Instant) async throws -> Int64
    /// Adds one hit to each counter window, as ``incrementCounter(key:windowStart:expiresAt:)`` does, in one
    /// statement; returns the windows' totals in the order given (a window named twice counts twice).
    func incrementCounters(_ windows: [(key: CounterKey, windowStart: Instant, expiresAt: Instant)]) async throws -> [Int64]
    /// Counts one hit on each window, all or none: when a hit takes a window past its `max`, the store keeps nothing of
    /// the transaction and throws ``CounterPastLimit`` naming the first such window in the order given. Returns the
    /// windows' totals after the count, in order. It must be the transaction's last statement, and the closure must
    /// not fail after it: on PostgreSQL, where the limit is checked by the statement itself, a transaction that has not
    /// begun (no write before it) sends it with its deferred writes as one statement that commits by itself.
    func reserveCounters(_ windows: [CounterReservation]) async throws -> [Int64]
    /// Takes back one hit counted with ``incrementCounter(key:windowStart:expiresAt:)`` (never below zero): limits
    /// that count failures reserve a hit before checking and release it on success, so checks cannot race.
    func releaseCounter(key: CounterKey, windowStart: Instant) async throws
    /// Takes back one hit from each window, as ``releaseCounter(key:windowStart:)`` does, in one statement.
    func releaseCounters(_ windows: [(key: CounterKey, windowStart: Instant)]) async throws
    /// Locks an account (replacing its earlier lock).
    func lockAccount(_ lock: AccountLock) async throws
    /// Forgets the failed sign-ins in a row of `email` in `tenant` (``CounterKey/accountFailures(tenant:email:)``) and
    /// its lock; returns the lock there was, held or not.
    func clearAccountFailures(tenant: TenantID, email: String) async throws -> AccountLock?
    /// Deletes the account locks that ended before `cutoff`; returns how many.
    func deleteAccountLocks(endedBefore cutoff: Instant) async throws -> Int
    /// Deletes counter windows that expired before `cutoff`; returns how many.
    func deleteCounters(expiredBefore cutoff: Instant) async throws -> Int
}

/// A hit to count on a counter window whose total may not pass `max` (``CountersWrites/reserveCounters(_:)``).
public struct CounterReservation: Sendable {
    public var key: CounterKey
    public var windowStart: Instant
    /// When the window's row may be swept.
    public var expiresAt: Instant
    /// The most hits the window may hold.
    public var max: Int64

    public init(key: CounterKey, windowStart: Instant, expiresAt: Instant, max: Int64) {
        self.key = key
        self.windowStart = windowStart
        self.expiresAt = expiresAt
        self.max = max
    }
}

/// A reservation refused: the hit would have taken the counter `key` past its maximum. Nothing of the transaction
/// that asked was kept.
public struct CounterPastLimit: Error, Equatable {
    public let key: CounterKey

    public init(key: CounterKey) { self.key = key }
}
