import HTTPTypes
import Hummingbird

/// Where Firebase serves the Identity Toolkit API, behind its hosts as the SDKs address the emulator.
enum IdentityToolkitPath {
    /// The v1 API: `/identitytoolkit.googleapis.com/v1/…`.
    static let v1 = "/identitytoolkit.googleapis.com/v1"
    /// The v3 API the iOS SDK still calls: `/www.googleapis.com/identitytoolkit/v3/relyingparty/…`.
    static let v3 = "/www.googleapis.com/identitytoolkit/v3/relyingparty"
    /// The v2 API (MFA, reCAPTCHA config): `/identitytoolkit.googleapis.com/v2/…`.
    static let v2 = "/identitytoolkit.googleapis.com/v2"
}

extension Router where Context == FlintRequestContext {
    /// Declares one endpoint under every path it is served at.
    /// - Parameters:
    ///   - method: the HTTP method.
    ///   - paths: the full paths (host first), each an alias of the others.
    ///   - handler: the handler; its answer is encoded with the context's ``WireEncoder``.
    func endpoint(
        _ method: HTTPRequest.Method, _ paths: String...,
        use handler: @escaping @Sendable (Request, FlintRequestContext) async throws -> some ResponseGenerator
    ) {
        for path in paths { on(RouterPath(path), method: method, use: handler) }
    }

    /// Declares an Identity Toolkit endpoint under its v1 path and the aliases Firebase serves it at.
    /// - Parameters:
    ///   - method: the HTTP method (`POST` unless told).
    ///   - v1: the path under `v1/` (`accounts:signUp`).
    ///   - v3: the v3 `relyingparty/` name (`signupNewUser`), if the endpoint has one.
    ///   - operatorPath: the Admin SDKs' path under `v1/projects/{project}/` (`accounts`), if it has one.
    ///   - handler: the handler; its answer is encoded with the context's ``WireEncoder``.
    func identityToolkit(
        _ method: HTTPRequest.Method = .post, v1: String, v3: String? = nil, operator operatorPath: String? = nil,
        use handler: @escaping @Sendable (Request, FlintRequestContext) async throws -> some ResponseGenerator
    ) {
        on(RouterPath("\(IdentityToolkitPath.v1)/\(v1)"), method: method, use: handler)
        if let v3 { on(RouterPath("\(IdentityToolkitPath.v3)/\(v3)"), method: method, use: handler) }
        if let operatorPath { on(RouterPath("\(IdentityToolkitPath.v1)/projects/{project}/\(operatorPath)"), method: method, use: handler) }
    }
}
