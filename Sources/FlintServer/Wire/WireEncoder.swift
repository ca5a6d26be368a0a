public import Hummingbird

/// The request context's encoder: answers are JSON as Google's front end writes it (``JSONReply``), so a handler
/// returns its `ResponseEncodable` answer and the router renders it.
public struct WireEncoder: ResponseEncoder {
    public init() {}

    public func encode(_ value: some Encodable, from request: Request, context: some RequestContext) throws -> Response {
        try JSONReply.make(value)
    }
}
