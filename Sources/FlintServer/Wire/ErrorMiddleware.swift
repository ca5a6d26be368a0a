import FlintCore
import Hummingbird
import Logging
import NIOCore

/// Turns every error into an answer in Firebase's error JSON. Errors that render themselves
/// (`HTTPResponseError`, which ``AuthError`` is) render as they say, except Hummingbird's own `HTTPError`s (404 for
/// no route, 405) and NIO's body-limit error (413), which get Firebase's wording; anything else is a logged 500 that
/// reveals nothing.
///
/// It sits inside `CORSMiddleware`, so the CORS headers land on error answers too. A refused body (413) also closes
/// the connection after the answer (`Connection: close`) instead of reading the rest of the body.
struct ErrorMiddleware: RouterMiddleware {
    typealias Context = FlintRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await render(request, context: context, next: next)
        if response.status == .contentTooLarge {
            response.headers[.connection] = "close"
            context.closeConnectionAfterResponse()
        }
        return response
    }

    private func render(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError {
            // Google's front end answers a method a path does not serve as it answers a path it does not know.
            if error.status == .methodNotAllowed, request.uri.path.hasPrefix("/identitytoolkit.googleapis.com/") {
                return try AuthError.notFound.response(from: request, context: context)
            }
            return try Self.firebaseError(error.status).response(from: request, context: context)
        } catch let error as NIOTooManyBytesError {
            // A body collected past its limit outside WireBody.
            return try Self.firebaseError(error.status).response(from: request, context: context)
        } catch let error as any HTTPResponseError {
            return try error.response(from: request, context: context)
        } catch {
            context.logger.error("unhandled error", metadata: ["path": "\(request.uri.path)", "errorType": "\(type(of: error))"])
            return try AuthError.internalError.response(from: request, context: context)
        }
    }

    /// Firebase's error for a status Hummingbird or NIO chose.
    static func firebaseError(_ status: HTTPResponse.Status) -> AuthError {
        switch status {
        case .notFound: .notFound
        case .contentTooLarge: .payloadTooLarge
        case .methodNotAllowed: AuthError(status: .methodNotAllowed, code: "Method Not Allowed", reason: "badRequest")
        case .internalServerError: .internalError
        default: AuthError(status: status, code: status.reasonPhrase, reason: "invalid")
        }
    }
}
