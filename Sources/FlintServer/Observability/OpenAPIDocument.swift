import HTTPTypes
import Hummingbird
import NIOCore

/// `GET /openapi.json`: the OpenAPI 3.1 document of every route, public like the API it describes.
///
/// The document is docs/openapi.json, kept by hand beside the code and embedded by `scripts/openapi-embed` as a
/// Swift string (``text``), so the binary serves it with no resource bundle to ship beside it. `OpenAPITests` checks
/// it against the router both ways (every route documented, every documented path served) and against the file.
enum OpenAPIDocument {
    /// The path it is served at.
    static let path = "/openapi.json"

    /// The answer: the document as JSON.
    @Sendable static func serve(_ request: Request, context: FlintRequestContext) async throws -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=UTF-8"
        headers[.cacheControl] = "public, max-age=300"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: body))
    }

    /// The document's bytes, made once.
    private static let body = ByteBuffer(string: text)
}
