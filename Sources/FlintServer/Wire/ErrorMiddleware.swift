import FlintCore
import Hummingbird
import Logging

/// Turns every error into Firebase's error JSON: ``AuthError`` as is, Hummingbird's own errors (404, 413...)
/// with Firebase's wording, anything else as a logged 500 that reveals nothing.
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as AuthError {
            return JSONReply.error(error)
        } catch let error as HTTPError {
            switch error.status {
            case .notFound: return JSONReply.error(.notFound)
            case .contentTooLarge: return JSONReply.error(.payloadTooLarge)
            case .methodNotAllowed: return JSONReply.error(AuthError(status: 405, code: "Method Not Allowed", reason: "badRequest"))
            default: return JSONReply.error(AuthError(status: Int(error.status.code), code: error.status.reasonPhrase, reason: "invalid"))
            }
        } catch {
            context.logger.error("unhandled error", metadata: ["path": "\(request.uri.path)", "errorType": "\(type(of: error))"])
            return JSONReply.error(.internalError)
        }
    }
}
