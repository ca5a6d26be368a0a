import FlintCore
import FlintStore

/// Abuse limits on shared counters (exact across nodes): fixed windows keyed by what is limited.
struct Limit: Sendable {
    /// The counter, e.g. ``FlintStore/CounterKey/passwordFailures(tenant:email:)``.
    let key: CounterKey
    /// Hits allowed per window.
    let max: Int64
    /// Window length.
    let window: Duration

    /// The start of the window `now` falls in (windows are aligned on the epoch).
    func windowStart(_ now: Instant) -> Instant { Self.windowStart(now, window: window) }

    /// The start of the `window`-long window `now` falls in (windows are aligned on the epoch).
    static func windowStart(_ now: Instant, window: Duration) -> Instant {
        let ms = now.millisecondsSince1970
        return Instant(millisecondsSince1970: ms - ms % window.inMilliseconds)
    }
}

extension [Limit] {
    /// Takes back the hits ``count(in:now:)`` made at `reservedAt`, e.g. once a reserved attempt succeeded, with one
    /// hit of each of `along` too, in one statement.
    func release(in tx: any CountersWrites, reservedAt: Instant, along: [(key: CounterKey, windowStart: Instant)] = []) async throws {
        try await tx.releaseCounters(windows(reservedAt) + along)
    }

    /// Whether one of the limits already had its maximum of hits in the current window (one read; nothing is
    /// counted).
    func atMaximum(in reader: any CountersReads, now: Instant) async throws -> Bool {
        reached(try await reader.counterValues(windows(now)))
    }

    /// The counter windows `now` falls in, one per limit, as ``FlintStore/CountersReads/counterValues(_:)`` reads them.
    func windows(_ now: Instant) -> [(key: CounterKey, windowStart: Instant)] { map { ($0.key, $0.windowStart(now)) } }

    /// Whether one of the limits has its maximum in `hits` (their counters' values, in order).
    func reached(_ hits: some Sequence<Int64>) -> Bool { zip(self, hits).contains { limit, hits in hits >= limit.max } }

    /// Counts one hit on each limit inside `tx`; returns whether one went over its maximum. The first hit past a
    /// maximum in a window records a `LOCKOUT` audit event in `tx`.
    func count(in tx: any CountersWrites & AuditWrites, now: Instant) async throws -> Bool {
        try await count(in: tx, now: now, along: []).over
    }

    /// Counts one hit on each limit and on each counter window of `along` in one statement, as
    /// ``count(in:now:)`` does; returns whether a limit went over its maximum and the totals of `along`, in order.
    func count(
        in tx: any CountersWrites & AuditWrites, now: Instant, along: [(key: CounterKey, windowStart: Instant, expiresAt: Instant)]
    ) async throws -> (over: Bool, along: [Int64]) {
        let totals = try await tx.incrementCounters(hitWindows(now) + along)
        var over = false
        for (limit, hits) in zip(self, totals) {
            if hits > limit.max { over = true }
            if hits - 1 == limit.max { try await tx.audit(.lockout, uid: nil, at: now, limit.auditDetail) }
        }
        return (over, [Int64](totals.dropFirst(count)))
    }

    /// The counter windows `now` falls in with their expiry, as ``FlintStore/CountersWrites/incrementCounters(_:)``
    /// counts them.
    func hitWindows(_ now: Instant) -> [(key: CounterKey, windowStart: Instant, expiresAt: Instant)] {
        map { limit in
            let start = limit.windowStart(now)
            return (limit.key, start, start + limit.window)
        }
    }
}
