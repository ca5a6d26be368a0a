import FlintCore
import Hummingbird
import NIOCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Builds JSON responses the way Google's front end sends them.
enum JSONReply {
    private static let contentType = "application/json; charset=UTF-8"

    /// Encodes `value` as the 200 (or `status`) body.
    static func make(_ value: some Encodable, status: HTTPResponse.Status = .ok, headers extra: HTTPFields = [:]) throws -> Response {
        let data = try CompactJSONEncoder().encode(value)
        var headers: HTTPFields = [.contentType: contentType]
        headers.append(contentsOf: extra)
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// Renders an ``AuthError`` in Firebase's error shape.
    static func error(_ error: AuthError) -> Response {
        var inner: [String: JSONValue] = ["message": .string(error.message), "domain": .string("global"), "reason": .string(error.reason)]
        if error.status == .unauthorized {
            inner = [
                "message": "Invalid Credentials", "domain": "global", "reason": .string(error.reason), "location": "Authorization",
                "locationType": "header",
            ]
        }
        var body: [String: JSONValue] = [
            "code": .number(Double(error.status.code)),
            "message": .string(error.message),
            "errors": .array([.object(inner)]),
        ]
        if let status = error.rpcStatus { body["status"] = .string(status) }
        let response = try? make(["error": JSONValue.object(body)], status: error.status)
        return response ?? Response(status: .internalServerError)
    }
}
