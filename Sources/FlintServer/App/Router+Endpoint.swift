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
/// and one only dev mode serves only in dev mode.
package struct EndpointRouter {
    /// The router the routes are added to.
    package let router: Router<FlintRequestContext>
    /// Whether dev mode's endpoints are served.
    package let devMode: Bool

    package init(router: Router<FlintRequestContext>, devMode: Bool) {
        (self.router, self.devMode) = (router, devMode)
    }

    /// Registers `endpoint` of Flint's API with its handler.
    /// - Parameters:
    ///   - endpoint: the endpoint, as ``APIEndpoint`` declares it.
    ///   - handler: the handler; its answer is encoded with the context's ``WireEncoder``.
    func on(_ endpoint: APIEndpoint, use handler: @escaping @Sendable (Request, FlintRequestContext) async throws -> some ResponseGenerator) {
        register(endpoint.endpoint, use: handler)
    }

    /// Registers `endpoint` with its handler, under every path it is served at (none when it is dev mode's and this
    /// is not).
    package func register(
        _ endpoint: Endpoint, use handler: @escaping @Sendable (Request, FlintRequestContext) async throws -> some ResponseGenerator
    ) {
        guard devMode || !endpoint.devModeOnly else { return }
        for route in endpoint.routes { router.on(RouterPath(route.path), method: endpoint.method, use: handler) }
    }
}
