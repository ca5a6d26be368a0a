import FlintCore
import FlintStore
import Synchronization

/// `lastRefreshAt` bookkeeping, kept off the refresh path: refreshes are noted in memory and written in one
/// transaction per second (and once more at shutdown). A crash loses at most a second of these timestamps,
/// which no rule depends on.
final class RefreshActivity: StoreFlushing {
    private let pending = Mutex<[String: Instant]>([:])

    /// Notes a refresh of `localID` at `at`.
    func note(localID: String, at: Instant) {
        pending.withLock { $0[localID] = $0[localID].map { max($0, at) } ?? at }
    }

    /// Writes what was noted since the last flush.
    func flush(to store: any AuthStore) async throws {
        let batch = pending.withLock { p -> [String: Instant] in
            defer { p.removeAll(keepingCapacity: true) }
            return p
        }
        guard !batch.isEmpty else { return }
        do {
            try await store.write { tx in
                for (localID, at) in batch { try await tx.touchRefresh(tenant: .default, localID: localID, at: at) }
            }
        } catch {
            // Kept for the next flush (a newer time noted meanwhile wins).
            pending.withLock { p in p.merge(batch) { Swift.max($0, $1) } }
            throw error
        }
    }
}
