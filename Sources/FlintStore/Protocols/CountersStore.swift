/// Shared abuse counters: fixed windows, one atomic hit at a time, exact across nodes. Queries.
public protocol CountersReads: Sendable {
    /// The hits counted so far for `key` in the window starting at `windowStart` (ms); 0 when none.
    func counterValue(key: String, windowStart: Int64) async throws -> Int64
}

/// Shared abuse counters: fixed windows, one atomic hit at a time, exact across nodes. Writes, inside a transaction.
public protocol CountersWrites: CountersReads {
    /// Adds one hit to the counter `key` for the window starting at `windowStart` (ms) and returns the window's
    /// total, counted exactly across every node sharing the store (one atomic upsert). The row may be swept after
    /// `expiresAt` (ms). Abuse limits are built on this.
    func incrementCounter(key: String, windowStart: Int64, expiresAt: Int64) async throws -> Int64
    /// Takes back one hit counted with ``incrementCounter(key:windowStart:expiresAt:)`` (never below zero): limits
    /// that count failures reserve a hit before checking and release it on success, so checks cannot race.
    func releaseCounter(key: String, windowStart: Int64) async throws
    /// Deletes counter windows that expired before `cutoff` (ms); returns how many.
    func deleteCounters(expiredBefore cutoff: Int64) async throws -> Int
}
