import Hummingbird

/// Fills the request's context from what the request arrived with, once, for the middleware and handlers inside it:
/// - the endpoint it matched (``EndpointTable``, from the route template Hummingbird matched): the metrics and the
///   audit log read the sign-in method it counts as, the caller middleware whether it only reads, the tenant
///   middleware how the endpoint serves tenants;
/// - the client's address (``FlintRequestContext/clientIP``) from `X-Forwarded-For` when the server trusts its proxy:
///   behind one trusted proxy, the last entry is the address that proxy saw; earlier ones are the client's word.
///   Without it, the address is the connection's peer. The API's limits and audit events and the console's lockouts
///   read it.
///
/// One middleware for both (they were two): each layer of middleware is an async call and a copy of the context on
/// every request, and these two only set fields.
struct RequestContextMiddleware: RouterMiddleware {
    typealias Context = FlintRequestContext
    let table: EndpointTable
    let settings: ServerSettings

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        context.endpoint = table[request.method, context.endpointPath]
        if settings.trustForwardedFor, let forwarded = request.headers[.xForwardedFor],
            let last = forwarded.split(separator: ",").last.map({ String($0).trimmingSpaces }), !last.isEmpty
        {
            context.clientIP = last
        }
        return try await next(request, context)
    }
}
