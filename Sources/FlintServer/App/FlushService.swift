import FlintStore
import Logging
import ServiceLifecycle

/// Bookkeeping a node keeps in memory, off the request path, and writes to the store in batches.
protocol StoreFlushing: Sendable {
    /// Writes what was noted since the last flush, in one transaction; on failure it stays queued for the next.
    func flush(to store: any AuthStore) async throws
}

/// Writes a node's in-memory bookkeeping (``RefreshActivity``'s `lastRefreshAt` times, ``StatsTally``'s dashboard
/// counters) to the store every second until shutdown, then a last time. A crash loses at most a second of it.
struct FlushService: Service, CustomStringConvertible {
    /// The name ServiceLifecycle logs at start, and the failure log's `service`.
    let name: String
    let pending: any StoreFlushing
    let store: any AuthStore
    let logger: Logger

    var description: String { name }

    func run() async throws {
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try await Task.sleep(for: .seconds(1))
                await flush()
            }
        }
        await flush()
    }

    /// One flush; a failure is logged and what it held stays queued for the next one.
    private func flush() async {
        do {
            try await pending.flush(to: store)
        } catch {
            logger.warning("background store write failed", metadata: ["service": "\(name)", "errorType": "\(type(of: error))"])
        }
    }
}
