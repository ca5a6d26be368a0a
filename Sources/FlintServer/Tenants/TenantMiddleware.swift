import FlintCore
import FlintStore
import HTTPTypes
import Hummingbird
import NIOCore

/// Resolves the tenant an API request names — its path's `{tenant}` (the operator's `tenants/{t}/accounts…` routes),
/// else `tenantId` in its JSON body (`tenant_id` too) or query; two that disagree are `TENANT_ID_MISMATCH` — and
/// answers by the endpoint's ``TenantHandling``: a ``TenantHandling/scoped`` endpoint runs in the tenant's
/// ``TenantScope``; a ``TenantHandling/refused`` one answers `UNSUPPORTED_TENANT_OPERATION`, so no request on a
/// tenant's users is ever answered from another tenant's. An unknown tenant is `TENANT_NOT_FOUND`, one whose
/// `disableAuth` is on `PROJECT_DISABLED`. An admin credential limited to tenants is held to its limit here, on every
/// endpoint (``AdminIdentity/requireTenant(_:for:)``): the tenant a call names, or the project when it names none.
///
/// Only a client's or operator's calls are looked at (an anonymous caller is refused by the handler first, as
/// before), and a body is parsed here only when its bytes mention a tenant (or an ID token) or hold an escape, so a
/// request that names none costs a few searches of its bytes and runs in the default tenant with nothing more.
struct TenantMiddleware: RouterMiddleware {
    typealias Context = FlintRequestContext
    let tenants: TenantCache
    let config: ConfigCache

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let endpoint = context.endpoint, Self.looksAtTenants(endpoint.access, caller: context.caller) else {
            return try await next(request, context)
        }
        let path = context.parameters.get("tenant")
        guard endpoint.tenant != .handled else {
            // The handler reads the tenant (its path's, or a GET's `tenantId`); a limited admin credential is held here.
            try context.admin?.requireTenant(path ?? request.uri.queryParameters["tenantId"].map(String.init), for: endpoint)
            return try await next(request, context)
        }
        var request = request
        let named = try await Self.namedTenant(in: &request, idToken: endpoint.tenant == .scoped && path == nil)
        if let path, let explicit = named.explicit, path != explicit { throw AuthError.tenantIDMismatch }
        // Else the tenant of the ID token the body carries: the SDKs send `accounts:lookup` and `accounts:delete` with the
        // token alone (Identity Platform's order: path, `tenantId`, the ID token's `firebase.tenant`).
        let id = path ?? named.explicit ?? named.idToken
        // A limited admin credential is refused before the tenant is looked up: whether another tenant exists is none of its business.
        try context.admin?.requireTenant(id, for: endpoint)
        guard let id else { return try await next(request, context) }
        let settings = try await tenants.open(id, over: config.project).settings
        guard endpoint.tenant == .scoped else {
            throw AuthError.unsupportedTenantOperation.with(detail: "((This server does not serve this call in a tenant.))")
        }
        return try await TenantScope.run(in: TenantID(rawValue: id), settings: settings) { try await next(request, context) }
    }

    /// Whether a call is one whose tenant is looked at: an API call (not a page) by an identified caller.
    private static func looksAtTenants(_ access: EndpointAccess, caller: Caller) -> Bool {
        switch caller {
        case .anonymous, .invalidBearer: return false
        case .apiKey, .admin: break
        }
        switch access {
        case .client, .clientRead, .adminWrite, .adminRead: return true
        case .open, .console: return false
        }
    }

    /// The tenants a request names: `explicit`, its query's or body's `tenantId` (`tenant_id` too); and when `idToken`
    /// is asked for and none is explicit, the `firebase.tenant` of the ID token its POST body carries, read without
    /// verifying the token: it only chooses the scope, and the handler then verifies the token and refuses it in any
    /// tenant but its own (``TenantScope/require(_:detail:)``). Its body is kept whole for the handler.
    ///
    /// The cost of a request that names no tenant (every sign-in of a project without tenants): a search of its query
    /// string and one pass over its body for each word that could name one; the body is parsed only when
    /// its bytes hold `tenant`, `idToken` (when asked for) or an escape.
    static func namedTenant(in request: inout Request, idToken: Bool) async throws(AuthError) -> (explicit: String?, idToken: String?) {
        if let query = request.uri.query, query.utf8.count >= 8,
            Array(query.utf8).withUnsafeBytes({ Self.contains(Self.tenantIDBytes, in: $0) }),
            let id = request.uri.queryParameters["tenantId"], !id.isEmpty
        {
            return (String(id), nil)
        }
        guard request.method == .post || request.method == .put || request.method == .patch else { return (nil, nil) }
        let buffer: ByteBuffer
        do { buffer = try await request.collectBody(upTo: WireBody.maxBytes) } catch { throw AuthError.payloadTooLarge }
        let mentioned = buffer.withUnsafeReadableBytes { raw in
            Self.contains(Self.tenantBytes, in: raw) || Self.contains(Self.escapeBytes, in: raw)
                || (idToken && request.method == .post && Self.contains(Self.idTokenBytes, in: raw))
        }
        guard mentioned else { return (nil, nil) }
        // What the handler would decode: the body's members with `snake_case` keys in `camelCase`.
        guard let object = (try? JSONValue(parsing: buffer.readableBytesView))?.objectValue else { return (nil, nil) }
        let fields = WireBody(fields: object).fields
        switch fields["tenantId"] {
        case nil, .null: break
        case .string(let id): if !id.isEmpty { return (id, nil) }
        case .some(let other): return ("\(other)", nil)
        }
        guard idToken, request.method == .post, case .string(let token)? = fields["idToken"] else { return (nil, nil) }
        return (nil, Self.unverifiedTenant(of: token))
    }

    /// The `firebase.tenant` claim of a JWT's payload, unverified; `nil` when it has none or is not a JWT.
    private static func unverifiedTenant(of token: String) -> String? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let payload = Base64URL.decode(parts[1]), let claims = try? JSONValue(parsing: payload),
            case .string(let tenant)? = claims["firebase"]?["tenant"], !tenant.isEmpty
        else { return nil }
        return tenant
    }

    /// Whether `needle` occurs in `haystack`.
    static func contains(_ needle: [UInt8], in haystack: UnsafeRawBufferPointer) -> Bool {
        guard let first = needle.first, haystack.count >= needle.count else { return false }
        var start = 0
        let last = haystack.count - needle.count
        while start <= last {
            if haystack[start] == first {
                var matched = 1
                while matched < needle.count && haystack[start + matched] == needle[matched] { matched += 1 }
                if matched == needle.count { return true }
            }
            start += 1
        }
        return false
    }

    private static let tenantBytes = Array("tenant".utf8)
    private static let escapeBytes = Array(#"\u"#.utf8)
    private static let idTokenBytes = Array("idToken".utf8)
    private static let tenantIDBytes = Array("tenantId".utf8)
}
