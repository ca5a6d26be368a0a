import FlintStore
import Logging
import ServiceLifecycle
import Synchronization

/// `lastRefreshAt` bookkeeping, kept off the refresh path: refreshes are noted in memory and written in one
/// transaction per second (and once more at shutdown). A crash loses at most a second of these timestamps,
/// which no rule depends on.
final class RefreshActivity: Sendable {
    private let pending = Mutex<[String: Int64]>([:])

    /// Notes a refresh of `localID` at `at` (ms).
    func note(localID: String, at: Int64) {
        pending.withLock { $0[localID] = max($0[localID] ?? 0, at) }
    }

    /// Writes what was noted since the last flush.
    func flush(to store: any AuthStore) async throws {
        let batch = pending.withLock { p -> [String: Int64] in
            defer { p.removeAll(keepingCapacity: true) }
            return p
        }
        guard !batch.isEmpty else { return }
        do {
            try await store.write { tx in
                for (localID, at) in batch { try await tx.touchRefresh(localID: localID, at: at) }
            }
        } catch {
            // Kept for the next flush (a newer time noted meanwhile wins).
            pending.withLock { p in p.merge(batch) { Swift.max($0, $1) } }
            throw error
        }
    }
}

/// Flushes ``RefreshActivity`` every second until shutdown, then a last time.
struct RefreshActivityService: Service, CustomStringConvertible {
    let activity: RefreshActivity
    let store: any AuthStore
    let logger: Logger

    /// Its name only, as ServiceLifecycle logs it at start.
    var description: String { "RefreshActivityService" }

    func run() async throws {
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try await Task.sleep(for: .seconds(1))
                await flush()
            }
        }
        await flush()
    }

    /// One flush; a failure is logged and the times stay queued for the next one.
    private func flush() async {
        do {
            try await activity.flush(to: store)
        } catch {
            logger.warning("recording refresh times failed", metadata: ["errorType": "\(type(of: error))"])
        }
    }
}
