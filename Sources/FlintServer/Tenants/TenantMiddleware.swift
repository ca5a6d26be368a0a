import FlintCore
import HTTPTypes
import Hummingbird
import NIOCore

/// Answers every API request that names a tenant (`tenantId` in its JSON body, `tenant_id` too, or in its query) on
/// an endpoint that does not serve tenants itself (``TenantHandling/refused``): `TENANT_NOT_FOUND` when no tenant has
/// that ID, else `UNSUPPORTED_TENANT_OPERATION` — until users carry their tenant (issue 32's next step), no request on
/// a tenant's users is ever answered from the project's own users.
///
/// Only a client's or operator's calls are looked at (an anonymous caller is refused by the handler first, as
/// before), and a body is parsed here only when its bytes mention a tenant or hold an escape, so a request that names
/// none costs one search of its bytes.
struct TenantMiddleware: RouterMiddleware {
    typealias Context = FlintRequestContext
    let tenants: TenantCache

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let endpoint = context.endpoint, endpoint.tenant == .refused, Self.looksAtTenants(endpoint.access, caller: context.caller) else {
            return try await next(request, context)
        }
        var request = request
        if let id = try await Self.namedTenant(in: &request) {
            _ = try await tenants.resolve(id)
            throw AuthError.unsupportedTenantOperation.with(detail: "((This server does not serve a tenant's users yet.))")
        }
        return try await next(request, context)
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

    /// The tenant the request names, if any; its body is kept whole for the handler.
    static func namedTenant(in request: inout Request) async throws(AuthError) -> String? {
        if let id = request.uri.queryParameters["tenantId"], !id.isEmpty { return String(id) }
        guard [.post, .put, .patch].contains(request.method) else { return nil }
        let buffer: ByteBuffer
        do { buffer = try await request.collectBody(upTo: WireBody.maxBytes) } catch { throw AuthError.payloadTooLarge }
        let bytes = buffer.readableBytesView
        // A plain scan over the bytes: the standard library's generic `firstRange(of:)` cost a refresh ~7 % of its CPU.
        let mentioned = buffer.withUnsafeReadableBytes { raw in Self.contains(Self.tenantBytes, in: raw) || Self.contains(Self.escapeBytes, in: raw) }
        guard mentioned else { return nil }
        // What the handler would decode: the body's members with `snake_case` keys in `camelCase`.
        guard let object = (try? JSONValue(parsing: bytes))?.objectValue else { return nil }
        switch WireBody(fields: object).fields["tenantId"] {
        case nil, .null: return nil
        case .string(let id): return id.isEmpty ? nil : id
        case .some(let other): return "\(other)"
        }
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
}
