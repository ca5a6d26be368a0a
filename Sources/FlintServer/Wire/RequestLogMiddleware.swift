import Hummingbird
import Logging

/// One log line per request: method, path without query (the query may hold an API key), status, duration.
/// Bodies are never logged: they carry codes and tokens.
struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let response = try await next(request, context)
        let elapsed = ContinuousClock.now - start
        context.logger.debug(
            "request",
            metadata: [
                "method": "\(request.method)", "path": "\(request.uri.path)", "status": "\(response.status.code)",
                "ms": "\(elapsed.components.attoseconds / 1_000_000_000_000_000 + elapsed.components.seconds * 1000)",
            ]
        )
        return response
    }
}
