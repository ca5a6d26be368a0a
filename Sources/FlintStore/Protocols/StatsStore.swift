public import FlintCore

/// The console dashboard's counters: events per hour by metric and label, shared by every node (each adds what it
/// counted in memory, about once a second). Queries.
public protocol StatsReads: Sendable {
    /// The counts of the hours from `from` (included) to `to` (excluded), summed into buckets of `bucket` (an hour or a
    /// day: a whole number of hours, aligned on the epoch, so UTC days), in bucket order. Empty buckets are absent.
    func stats(from: Instant, to: Instant, bucket: Duration) async throws -> [StatCount]
}

/// The console dashboard's counters. Writes, inside a transaction.
public protocol StatsWrites: StatsReads {
    /// Adds each count to its counter (`bucket` is the hour's start), creating it at zero first: one atomic upsert
    /// per counter, exact across nodes.
    func addStats(_ counts: [StatCount]) async throws
    /// Deletes the hours before `cutoff`; returns how many counters went.
    func deleteStats(before cutoff: Instant) async throws -> Int
}
