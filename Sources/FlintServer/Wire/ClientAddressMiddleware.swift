import Hummingbird

/// Sets the context's client address (``FlintRequestContext/clientIP``) from `X-Forwarded-For` when the server trusts
/// its proxy: behind one trusted proxy, the last entry is the address that proxy saw; earlier ones are the client's
/// word. Without it, the address is the connection's peer. The API's limits and audit events and the console's
/// lockouts read it.
struct ClientAddressMiddleware: RouterMiddleware {
    typealias Context = FlintRequestContext
    let settings: ServerSettings

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard settings.trustForwardedFor, let forwarded = request.headers[.xForwardedFor],
            let last = forwarded.split(separator: ",").last.map({ String($0).trimmingSpaces }), !last.isEmpty
        else { return try await next(request, context) }
        var context = context
        context.clientIP = last
        return try await next(request, context)
    }
}
