import HTTPTypes
package import Hummingbird

/// Where Firebase serves the Identity Toolkit API, behind its hosts as the SDKs address the emulator.
enum IdentityToolkitPath {
    /// The v1 API: `/identitytoolkit.googleapis.com/v1/…`.
    static let v1 = "/identitytoolkit.googleapis.com/v1"
    /// The v3 API the iOS SDK still calls: `/www.googleapis.com/identitytoolkit/v3/relyingparty/…`.
    static let v3 = "/www.googleapis.com/identitytoolkit/v3/relyingparty"
    /// The v2 API (MFA, reCAPTCHA config): `/identitytoolkit.googleapis.com/v2/…`.
    static let v2 = "/identitytoolkit.googleapis.com/v2"
}

/// A router that registers endpoints from their declarations (``Endpoint``): each under every path it is served at,
/// and one only dev mode serves only in dev mode. It registers on the router itself (Flint's API) or on a module's
/// route group (``ModuleRoutes``), whose prefix the declared paths start with.
package struct EndpointRouter {
    /// The router or route group the routes are added to.
    let routes: any RouterMethods<FlintRequestContext>
    /// The path of the route group, which the group puts back before each path (empty for the router itself).
    let prefix: String
    /// Whether dev mode's endpoints are served.
    let devMode: Bool

    init(routes: any RouterMethods<FlintRequestContext>, prefix: String = "", devMode: Bool) {
        (self.routes, self.prefix, self.devMode) = (routes, prefix, devMode)
    }

    /// Registers `endpoint` of Flint's API with its handler.
    /// - Parameters:
    ///   - endpoint: the endpoint, as ``APIEndpoint`` declares it.
    ///   - handler: the handler; its answer is encoded with the context's ``WireEncoder``.
    func on(_ endpoint: APIEndpoint, use handler: @escaping @Sendable (Request, FlintRequestContext) async throws -> some ResponseGenerator) {
        register(endpoint.endpoint, use: handler)
    }

    /// Registers `endpoint` with its handler, under every path it is served at (none when it is dev mode's and this
    /// is not). Its paths start with the group's prefix.
    package func register(
        _ endpoint: Endpoint, use handler: @escaping @Sendable (Request, FlintRequestContext) async throws -> some ResponseGenerator
    ) {
        guard devMode || !endpoint.devModeOnly else { return }
        for route in endpoint.routes {
            precondition(route.path.hasPrefix(prefix), "\(route.path) is declared outside its route group \(prefix)")
            routes.on(RouterPath(String(route.path.dropFirst(prefix.count))), method: endpoint.method, use: handler)
        }
    }
}
