import FlintCore
import FlintStore
import Tracing

/// The node's store with a client span around each transaction (`store.write`, `store.read`: the whole transaction,
/// commit included, as the flow waits for it), a child of the request's span. Installed only when the node has a
/// tracer. A flow's own refusal thrown out of its transaction (an ``AuthError``) is no store failure and leaves the
/// span's status unset; any other error marks it, by type only (`error.type`).
struct TracedStore: AuthStore {
    let base: any AuthStore
    let tracer: any Tracer

    func write<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) async throws -> T) async throws -> T {
        try await traced("write") { try await base.write(body) }
    }

    func read<T: Sendable>(_ body: @escaping @Sendable (any StoreReader) async throws -> T) async throws -> T {
        try await traced("read") { try await base.read(body) }
    }

    func close() async throws { try await base.close() }

    func announce(_ change: StoreChange) async { await base.announce(change) }

    func changes() -> AsyncStream<StoreChange> { base.changes() }

    private func traced<T>(_ operation: String, _ body: () async throws -> T) async throws -> T {
        let span = tracer.startSpan("store.\(operation)", context: InstrumentationContext.current ?? .topLevel, ofKind: .client)
        defer { span.end() }
        span.attributes["db.operation.name"] = operation
        do {
            return try await InstrumentationContext.withValue(span.context) { try await body() }
        } catch {
            if !(error is AuthError) {
                span.attributes["error.type"] = "\(type(of: error))"
                span.setStatus(SpanStatus(code: .error))
            }
            throw error
        }
    }
}
