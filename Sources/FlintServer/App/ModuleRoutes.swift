package import Hummingbird

/// Where a module (``ServerModule``) registers its endpoints: route groups of the node's router outside the API's
/// middleware (CORS, Firebase's error answers, API keys and admin credentials with the read-only rule, the audit of
/// admin calls), which mean something only for the API.
///
/// A group runs the module's own middleware, outermost, then what every endpoint of the node gets: its entry of the
/// endpoint table and the client's address bound to the context (``RequestContextMiddleware``), then the metrics by
/// route template (inside the module's middleware, as inside the API's error rendering, so they see a thrown error). The request log, the connection limit per address and the body limits apply to every
/// request of the node, the module's too.
package struct ModuleRoutes {
    let router: Router<FlintRequestContext>
    let table: EndpointTable
    let node: Node

    /// A route group at `prefix` running `middleware` (outermost first) around the node's per-endpoint middleware;
    /// the endpoints registered on it keep the full paths they declare, which start with `prefix`.
    package func group(_ prefix: String, middleware: [any MiddlewareProtocol<Request, Response, FlintRequestContext>]) -> EndpointRouter {
        let group = router.group(RouterPath(prefix))
        for outer in middleware { group.add(middleware: outer) }
        group.add(middleware: RequestContextMiddleware(table: table, settings: node.settings))
        group.add(middleware: MetricsMiddleware(metrics: node.metrics))
        return EndpointRouter(routes: group, prefix: prefix, devMode: node.settings.devMode)
    }
}
