import FlintCore
import FlintStore
import Synchronization

/// `lastRefreshAt` and sessions' last-use bookkeeping, kept off the refresh path: refreshes are noted in memory and
/// written in one transaction per second (and once more at shutdown). A crash loses at most a second of these
/// timestamps; the idle timeout reads a session's, which lags by up to its precision anyway.
final class RefreshActivity: StoreFlushing {
    /// A session's use: when, and from which address.
    struct SessionUse: Sendable {
        var at: Instant
        var ip: String?
    }

    private struct Pending {
        var accounts: [AccountKey: Instant] = [:]
        var sessions: [String: SessionUse] = [:]
        var isEmpty: Bool { accounts.isEmpty && sessions.isEmpty }

        mutating func merge(_ other: Pending) {
            accounts.merge(other.accounts) { Swift.max($0, $1) }
            sessions.merge(other.sessions) { $0.at >= $1.at ? $0 : $1 }
        }
    }

    /// An account, by tenant and ID.
    private struct AccountKey: Hashable {
        var tenant: TenantID
        var localID: String
    }

    private let pending = Mutex(Pending())

    /// Notes a refresh of the account `localID` of `tenant` at `at`.
    func note(tenant: TenantID, localID: String, at: Instant) {
        let key = AccountKey(tenant: tenant, localID: localID)
        pending.withLock { $0.accounts[key] = $0.accounts[key].map { max($0, at) } ?? at }
    }

    /// Notes a use of the session whose refresh token hashes to `hash`.
    func note(session hash: String, at: Instant, ip: String?) {
        pending.withLock { p in p.merge(Pending(sessions: [hash: SessionUse(at: at, ip: ip)])) }
    }

    /// Writes what was noted since the last flush.
    func flush(to store: any AuthStore) async throws {
        let batch = pending.withLock { p -> Pending in
            defer { p = Pending() }
            return p
        }
        guard !batch.isEmpty else { return }
        do {
            try await store.write { tx in
                for (key, at) in batch.accounts { try await tx.touchRefresh(tenant: key.tenant, localID: key.localID, at: at) }
                for (hash, use) in batch.sessions { try await tx.touchSession(hash: hash, at: use.at, ip: use.ip) }
            }
        } catch {
            // Kept for the next flush (a newer time noted meanwhile wins).
            pending.withLock { p in p.merge(batch) }
            throw error
        }
    }
}
