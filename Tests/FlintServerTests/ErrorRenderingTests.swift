import FlintCore
import FlintServerTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import FlintServer

/// ``ErrorMiddleware`` behind ``CORSMiddleware/firebase()``, on routes that throw what handlers cannot be made to.
@Suite("Errors: rendering of errors that are not AuthError")
struct ErrorRenderingTests {
    struct Unexpected: Error {}

    static func withRouter(_ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        let router = Router(context: FlintRequestContext.self)
        router.add(middleware: CORSMiddleware.firebase())
        router.add(middleware: ErrorMiddleware())
        router.get("/unexpected") { _, _ -> Response in throw Unexpected() }
        router.get("/method") { _, _ -> Response in throw HTTPError(.methodNotAllowed) }
        router.get("/bytes") { _, _ -> Response in throw NIOTooManyBytesError(maxBytes: 10) }
        try await Application(router: router).test(.router) { client in try await body(client) }
    }

    static func reply(_ client: any TestClientProtocol, _ path: String) async throws -> Reply {
        let response = try await client.execute(uri: path, method: .get, headers: [.origin: "http://web.example.test"], body: nil)
        return Reply(status: response.status, headers: response.headers, text: String(buffer: response.body))
    }

    @Test("an unknown error is an opaque 500 INTERNAL_ERROR that still carries CORS headers")
    func unknownError() async throws {
        try await Self.withRouter { client in
            let reply = try await Self.reply(client, "/unexpected")
            #expect(reply.status == .internalServerError)
            #expect(reply.errorMessage == "INTERNAL_ERROR")
            #expect(!reply.text.contains("Unexpected"))
            #expect(reply.headers[.accessControlAllowOrigin] == "http://web.example.test")
        }
    }

    @Test("Hummingbird's 405 and NIO's body limit get Firebase's wording; the 413 closes the connection")
    func frameworkErrors() async throws {
        try await Self.withRouter { client in
            let method = try await Self.reply(client, "/method")
            #expect(method.status == .methodNotAllowed)
            #expect(method.errorMessage == "Method Not Allowed")
            #expect(method.headers[.accessControlAllowOrigin] == "http://web.example.test")
            let bytes = try await Self.reply(client, "/bytes")
            #expect(bytes.status == .contentTooLarge)
            #expect(bytes.errorMessage == AuthError.payloadTooLarge.message)
            #expect(bytes.headers[.connection] == "close")
            #expect(bytes.headers[.accessControlAllowOrigin] == "http://web.example.test")
        }
    }
}
