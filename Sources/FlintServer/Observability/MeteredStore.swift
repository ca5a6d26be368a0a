import CoreMetrics
import FlintCore
import FlintStore
import Prometheus

/// The node's store, timed: every `read` and `write` (the whole transaction, commit included, as the flows wait for
/// it) is recorded in `flint_store_operation_duration_seconds`, counted in `flint_store_operations_in_flight` while it
/// runs (how much of the engine's connections and writer the node holds), and its failures in
/// `flint_store_errors_total` (not the ``AuthError``s flows throw out of their closures). Costs two clock reads, two atomic meter updates and one histogram update per operation.
struct MeteredStore: AuthStore {
    let base: any AuthStore
    let metrics: FlintMetrics

    func write<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) async throws -> T) async throws -> T {
        try await measure(metrics.storeWrites, metrics.storeWritesInFlight, "write") { try await base.write(body) }
    }

    func read<T: Sendable>(_ body: @escaping @Sendable (any StoreReader) async throws -> T) async throws -> T {
        try await measure(metrics.storeReads, metrics.storeReadsInFlight, "read") { try await base.read(body) }
    }

    func close() async throws { try await base.close() }

    func announce(_ change: StoreChange) async { await base.announce(change) }

    func changes() -> AsyncStream<StoreChange> { base.changes() }

    private func measure<T: Sendable>(
        _ timer: any TimerHandler, _ inFlight: any MeterHandler, _ operation: String, _ body: () async throws -> T
    ) async throws -> T {
        inFlight.increment(by: 1)
        let start = ContinuousClock.now
        defer {
            let elapsed = ContinuousClock.now - start
            timer.recordNanoseconds(elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000)
            inFlight.decrement(by: 1)
        }
        do {
            return try await body()
        } catch {
            // A flow's own refusal thrown out of its transaction is no store failure.
            if error is AuthError { throw error }
            metrics.factory.makeCounter(label: FlintMetrics.Name.storeErrors, dimensions: [("operation", operation)]).increment(by: 1)
            throw error
        }
    }
}
