import FlintCore
import FlintStore
import Logging
import ServiceLifecycle
import Synchronization

/// The console dashboard's counters, kept off the request path: ``FlintMetrics`` notes each event here (a clock read
/// and a dictionary update under a lock, no store access), and ``StatsService`` adds what was noted to the store's
/// hourly counters once a second (and once more at shutdown), so every node's events reach the shared table. A
/// crash loses at most a second of counts, which no rule depends on.
final class StatsTally: Sendable {
    /// A counter of one hour.
    struct Key: Hashable, Sendable {
        let hour: Instant
        let metric: StatMetric
        let label: String
    }

    private let clock: any WallClock
    private let pending = Mutex<[Key: Int64]>([:])

    /// How long an hour is.
    static let hour: Duration = .seconds(3600)

    /// A tally stamping events with `clock`'s time.
    init(clock: any WallClock) { self.clock = clock }

    /// Counts one `metric` event labelled `label`, in the hour it happens.
    func note(_ metric: StatMetric, _ label: String) {
        let key = Key(hour: Self.start(of: clock.now(), bucket: Self.hour), metric: metric, label: label)
        pending.withLock { $0[key, default: 0] += 1 }
    }

    /// Adds what was noted since the last flush to the store's counters, in one transaction.
    func flush(to store: any AuthStore) async throws {
        let batch = pending.withLock { p -> [Key: Int64] in
            defer { p.removeAll(keepingCapacity: true) }
            return p
        }
        guard !batch.isEmpty else { return }
        let counts = batch.map { StatCount(bucket: $0.key.hour, metric: $0.key.metric, label: $0.key.label, count: $0.value) }
        do {
            try await store.write { tx in try await tx.addStats(counts) }
        } catch {
            // Kept for the next flush, with what was counted meanwhile.
            pending.withLock { p in p.merge(batch, uniquingKeysWith: +) }
            throw error
        }
    }

    /// The start of the bucket of width `bucket` (an hour, a day: UTC) that holds `instant`.
    static func start(of instant: Instant, bucket: Duration) -> Instant {
        let width = bucket.inMilliseconds
        let ms = instant.millisecondsSince1970
        let floored = ms >= 0 ? ms / width * width : (ms - width + 1) / width * width
        return Instant(millisecondsSince1970: floored)
    }
}

/// Flushes a node's ``StatsTally`` every second until shutdown, then a last time.
struct StatsService: Service, CustomStringConvertible {
    let tally: StatsTally
    let store: any AuthStore
    let logger: Logger

    /// Its name only, as ServiceLifecycle logs it at start.
    var description: String { "StatsService" }

    func run() async throws {
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try await Task.sleep(for: .seconds(1))
                await flush()
            }
        }
        await flush()
    }

    /// One flush; a failure is logged and the counts stay queued for the next one.
    private func flush() async {
        do {
            try await tally.flush(to: store)
        } catch {
            logger.warning("recording dashboard counters failed", metadata: ["errorType": "\(type(of: error))"])
        }
    }
}
