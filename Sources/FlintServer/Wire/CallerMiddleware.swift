import FlintCore
import FlintStore
import HTTPTypes
import Hummingbird
import Logging

/// Reads the credential of every request: API key (`key` query or `x-goog-api-key` header) and admin
/// credential (`Authorization: Bearer …`: the bootstrap `--admin-token`, dev mode's `owner`, or a named credential),
/// and records the caller in the context. Guards on the routes decide; a read-scoped credential is refused here on
/// anything but a read (``Endpoint/onlyReads``). Every admin call is logged with its credential's name.
struct CallerMiddleware: RouterMiddleware {
    typealias Context = FlintRequestContext
    let settings: ServerSettings
    let credentials: AdminCredentials

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        (context.caller, context.admin) = try await identify(request)
        guard let admin = context.admin else { return try await next(request, context) }
        return try await logged(request, admin: admin, context: context) {
            guard admin.scope == .write || Endpoint.readScopeAllows(request.method, to: context.endpoint) else {
                throw AuthError.insufficientPermission.with(detail: "The admin credential '\(admin.name)' may only read.")
            }
            return try await next(request, context)
        }
    }

    private func identify(_ request: Request) async throws(AuthError) -> (Caller, AdminIdentity?) {
        if let authorization = request.headers[.authorization] {
            let parts = authorization.split(separator: " ", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "bearer" {
                let token = String(parts[1]).trimmingSpaces
                if settings.isAdminCredential(token) { return (.admin, token.lowercased() == "owner" && settings.devMode ? .owner : .bootstrap) }
                if let named = try await credentials.identify(token) { return (.admin, named) }
                return (.invalidBearer, nil)
            }
        }
        let key = request.uri.queryParameters["key"].map(String.init) ?? request.headers[HTTPField.Name("x-goog-api-key")!]
        if let key, !key.isEmpty {
            guard settings.acceptsAPIKey(key) else { throw AuthError.invalidAPIKey }
            return (.apiKey(key), nil)
        }
        return (.anonymous, nil)
    }

    /// Runs an admin call and logs it: the credential's name, method, path (no query) and status.
    private func logged(
        _ request: Request, admin: AdminIdentity, context: Context, _ call: () async throws -> Response
    ) async throws -> Response {
        var metadata: Logger.Metadata = ["credential": "\(admin.name)", "method": "\(request.method)", "path": "\(request.uri.path)"]
        do {
            let response = try await call()
            metadata["status"] = "\(response.status.code)"
            context.logger.info("admin call", metadata: metadata)
            return response
        } catch {
            metadata["status"] = "\((error as? any HTTPResponseError)?.status.code ?? 500)"
            context.logger.info("admin call", metadata: metadata)
            throw error
        }
    }
}

extension FlintRequestContext {
    /// Requires an API key or the admin credential (Firebase's admin SDKs send a bearer token and no key).
    func requireClient() throws(AuthError) {
        switch caller {
        case .apiKey, .admin: return
        case .invalidBearer: throw AuthError.unauthenticated
        case .anonymous: throw AuthError.missingAPIKey
        }
    }

    /// Requires the admin credential: 401 without credential, 403 with only an API key.
    func requireAdmin() throws(AuthError) {
        switch caller {
        case .admin: return
        case .apiKey: throw AuthError.insufficientPermission
        case .anonymous, .invalidBearer: throw AuthError.unauthenticated
        }
    }

    /// Whether the caller is the operator.
    var isAdmin: Bool { caller == .admin }
}

extension String {
    package var trimmingSpaces: String {
        var s = Substring(self)
        while s.first == " " || s.first == "\t" { s = s.dropFirst() }
        while s.last == " " || s.last == "\t" { s = s.dropLast() }
        return String(s)
    }
}

extension HTTPField.Name {
    /// `X-Forwarded-For`, read only when the server trusts its proxy.
    static let xForwardedFor = HTTPField.Name("X-Forwarded-For")!
}
