import FlintCore
public import Hummingbird

/// An ``AuthError`` renders itself as Firebase's error JSON wherever it is thrown, so middleware that wraps
/// errors (CORS adds its headers to the error it rethrows) still answers Firebase's status and body.
extension AuthError: HTTPResponseError {
    /// Firebase's error JSON (see ``JSONReply/error(_:)``).
    /// - Parameters:
    ///   - request: the request being answered.
    ///   - context: its context.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        JSONReply.error(self)
    }
}
