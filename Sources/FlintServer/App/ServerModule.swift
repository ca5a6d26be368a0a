package import FlintCore
package import FlintStore

/// Something a node serves beside Flint's API, on the same router and over the same flows: the web console
/// (FlintConsole's `ConsoleModule`). FlintServer knows modules only through this protocol; the CLI (`flint serve`)
/// hands them to ``FlintServer``, so the server has no dependency on what it serves for them.
package protocol ServerModule: Sendable {
    /// The module's endpoints, for the endpoint table (``EndpointMiddleware``).
    var endpoints: [Endpoint] { get }

    /// Registers the module's endpoints with their handlers, built over the node's flows, in a route group of its own
    /// (``ModuleRoutes/group(_:middleware:)``) that none of the API's middleware wraps.
    func register(on routes: ModuleRoutes, flows: Flows) throws

    /// Deletes what the module keeps past its time, in the transaction of the node's periodic sweep
    /// (``ReloadService/sweep()``).
    func sweep(_ tx: any StoreTransaction, now: Instant) async throws
}
