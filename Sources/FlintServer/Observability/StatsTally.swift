package import FlintCore
package import FlintStore
import Synchronization

/// The console dashboard's counters, kept off the request path: ``FlintMetrics`` notes each event here (a clock read
/// and a dictionary update under a lock, no store access), and a ``FlushService`` adds what was noted to the store's
/// hourly counters once a second (and once more at shutdown), so every node's events reach the shared table. A
/// crash loses at most a second of counts, which no rule depends on.
package final class StatsTally: StoreFlushing {
    /// How long the store keeps the hourly counters: the console dashboard's longest period (a year, by UTC day), and
    /// a month of margin. The dashboard reads a period as a range of the table's primary key (hour first): an index
    /// walk of that range, never a scan.
    package static let retention: Duration = .seconds(400 * 86_400)

    private let clock: any WallClock
    private let pending = Mutex<[StatKey: Int64]>([:])

    /// How long an hour is.
    static let hour: Duration = .seconds(3600)

    /// A tally stamping events with `clock`'s time.
    init(clock: any WallClock) { self.clock = clock }

    /// Counts one `metric` event labelled `label`, in the hour it happens.
    func note(_ metric: StatMetric, _ label: String) {
        let key = StatKey(bucket: Self.start(of: clock.now(), bucket: Self.hour), metric: metric, label: label)
        pending.withLock { $0[key, default: 0] += 1 }
    }

    /// Adds what was noted since the last flush to the store's counters, in one transaction.
    package func flush(to store: any AuthStore) async throws {
        let batch = pending.withLock { p -> [StatKey: Int64] in
            defer { p.removeAll(keepingCapacity: true) }
            return p
        }
        guard !batch.isEmpty else { return }
        let counts = batch.map { StatCount($0.key, count: $0.value) }
        do {
            try await store.write { tx in try await tx.addStats(counts) }
        } catch {
            // Kept for the next flush, with what was counted meanwhile.
            pending.withLock { p in p.merge(batch, uniquingKeysWith: +) }
            throw error
        }
    }

    /// The start of the bucket of width `bucket` (an hour, a day: UTC) that holds `instant`.
    package static func start(of instant: Instant, bucket: Duration) -> Instant {
        let width = bucket.inMilliseconds
        let ms = instant.millisecondsSince1970
        let floored = ms >= 0 ? ms / width * width : (ms - width + 1) / width * width
        return Instant(millisecondsSince1970: floored)
    }
}
