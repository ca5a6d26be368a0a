import FlintCore
import FlintServer
import HTTPTypes
import Hummingbird
import Logging

/// The console's own middleware, the outermost of its route group (``ConsoleModule``): every answer carries the
/// console's headers (``ConsolePages/headers``: its policy, no caching, no sniffing, no framing, no referrer) where
/// the handler set none of its own, and an error a handler throws becomes a console page, never Firebase's JSON: with
/// the status the error carries (a form past its size limit: 413, closing the connection instead of reading the rest),
/// or a logged 500 that reveals nothing.
struct ConsoleMiddleware: RouterMiddleware {
    typealias Context = FlintRequestContext
    let pages: ConsolePages

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
        } catch {
            response = errorPage(error, request: request, context: context)
        }
        for field in ConsolePages.headers where response.headers[field.name] == nil { response.headers.append(field) }
        return response
    }

    /// The page answering `error`.
    private func errorPage(_ error: any Error, request: Request, context: Context) -> Response {
        guard let error = error as? any HTTPResponseError else {
            context.logger.error("unhandled error", metadata: ["path": "\(request.uri.path)", "errorType": "\(type(of: error))"])
            return pages.message("Error", "The console could not answer this request; the server's log has the cause.", status: .internalServerError)
        }
        switch error.status {
        case .contentTooLarge:
            context.closeConnectionAfterResponse()
            var page = pages.message("Refused", "The form is larger than the console accepts.", status: .contentTooLarge)
            page.headers[.connection] = "close"
            return page
        case .notFound:
            return pages.message("Not found", "There is no such page.", status: .notFound)
        default:
            let text = (error as? AuthError)?.message ?? error.status.reasonPhrase
            return pages.message("Refused", "The request was refused: \(text).", status: error.status)
        }
    }
}
