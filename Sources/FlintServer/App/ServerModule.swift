package import FlintCore
package import FlintStore
import ServiceLifecycle

/// Something a node serves beside Flint's API, on the same router and over the same flows: the web console
/// (FlintConsole's `ConsoleModule`). FlintServer knows modules only through this protocol; the CLI (`flint serve`)
/// hands them to ``FlintServer``, so the server has no dependency on what it serves for them.
package protocol ServerModule: Sendable {
    /// The module's endpoints, for the endpoint table (``RequestContextMiddleware``).
    var endpoints: [Endpoint] { get }

    /// Registers the module's endpoints with their handlers, built over the node's flows, in a route group of its own
    /// (``ModuleRoutes/group(_:middleware:)``) that none of the API's middleware wraps.
    func register(on routes: ModuleRoutes, flows: Flows) throws

    /// Deletes what the module keeps past its time, in the transaction of the node's periodic sweep
    /// (``ReloadService/sweep()``).
    func sweep(_ tx: any StoreTransaction, now: Instant) async throws

    /// Ends the module's background work when the node shuts down gracefully (``ModuleShutdownService``), before the
    /// store closes.
    func shutdown() async
}

extension ServerModule {
    /// No background work to end.
    package func shutdown() async {}
}

/// Tells the node's modules, once graceful shutdown begins (or the node is cancelled), that it is shutting down
/// (``ServerModule/shutdown()``), and waits for them.
struct ModuleShutdownService: Service, CustomStringConvertible {
    let modules: [any ServerModule]

    var description: String { "ModuleShutdownService" }

    func run() async throws {
        // Cancellation ends the wait too: the modules end their work either way.
        try? await gracefulShutdown()
        for module in modules { await module.shutdown() }
    }
}
