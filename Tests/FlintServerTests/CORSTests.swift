import FlintCore
import FlintServerTestSupport
import Foundation
import Hummingbird
import Testing

@testable import FlintServer

/// A web app on another origin reads Flint's answers, errors included, only when they carry CORS headers.
@Suite("CORS: errors and preflights")
struct CORSTests {
    static let origin = "http://app.example.test:8080"

    /// A request that fails, and the Firebase answer it must keep when it carries an `Origin`.
    struct FailingRequest: Sendable, CustomTestStringConvertible {
        let name: String
        let method: HTTPRequest.Method
        let path: String
        let body: String?
        let headers: HTTPFields
        let status: HTTPResponse.Status
        let message: String

        var testDescription: String { name }
    }

    static let failures: [FailingRequest] = [
        .init(
            name: "400 INVALID_SESSION_INFO from a handler", method: .post, path: API.keyed(Path.signIn),
            body: #"{"sessionInfo":"not-a-session","code":"123456"}"#, headers: [:], status: .badRequest, message: "INVALID_SESSION_INFO"),
        .init(
            name: "400 on JSON that does not parse", method: .post, path: API.keyed(Path.signIn), body: "{not json", headers: [:],
            status: .badRequest, message: "Invalid JSON payload received. Unexpected token"),
        .init(
            name: "404 for a path Flint does not route", method: .get, path: "/identitytoolkit.googleapis.com/v1/nowhere", body: nil,
            headers: [:], status: .notFound, message: "Not Found"),
        .init(
            name: "413 for a body over 1 MiB", method: .post, path: API.keyed(Path.signIn),
            body: #"{"sessionInfo":""# + String(repeating: "a", count: WireBody.maxBytes + 10) + #""}"#, headers: [:],
            status: .contentTooLarge, message: "Request payload size exceeds the limit: 1048576 bytes."),
        .init(
            name: "401 for a bearer credential that is not the admin's", method: .post, path: Path.lookup, body: #"{"idToken":"x"}"#,
            headers: [.authorization: "Bearer not-the-admin"], status: .unauthorized, message: "Request had invalid authentication credentials."),
    ]

    @Test("an error answered to a request with an Origin keeps Firebase's status and message and carries CORS headers", arguments: failures)
    func errorsCarryCORSHeaders(_ failure: FailingRequest) async throws {
        try await withFlint { api in
            var headers = failure.headers
            headers[.origin] = Self.origin
            let reply = try await api.call(failure.method, failure.path, body: failure.body, headers: headers)
            #expect(reply.status == failure.status, "\(reply.text.prefix(300))")
            #expect(reply.errorMessage?.hasPrefix(failure.message) == true, "\(reply.text.prefix(300))")
            #expect(reply.json["error"]?["code"]?.intValue == Int64(failure.status.code))
            #expect(reply.headers[.accessControlAllowOrigin] == Self.origin)
            #expect(reply.headers[.contentType]?.hasPrefix("application/json") == true)
            if failure.status == .contentTooLarge { #expect(reply.headers[.connection] == "close") }
        }
    }

    @Test("the same errors without an Origin are unchanged and carry no CORS header")
    func errorsWithoutOrigin() async throws {
        try await withFlint { api in
            let missing = try await api.call(.get, "/identitytoolkit.googleapis.com/v1/nowhere")
            #expect(missing.status == .notFound)
            #expect(missing.errorMessage == "Not Found")
            #expect(missing.headers[.accessControlAllowOrigin] == nil)
            let bad = try await api.postRaw(Path.signIn, #"{"sessionInfo":"nope","code":"1"}"#)
            #expect(bad.errorCode == "INVALID_SESSION_INFO")
            #expect(bad.headers[.accessControlAllowOrigin] == nil)
        }
    }

    @Test("a success answered cross-origin carries CORS headers")
    func successCarriesCORSHeaders() async throws {
        try await withFlint { api in
            let reply = try await api.call(.get, Path.jwks, headers: [.origin: Self.origin])
            #expect(reply.status == .ok)
            #expect(reply.headers[.accessControlAllowOrigin] == Self.origin)
        }
    }

    /// What the Web SDK's preflights ask for.
    static let webSDKHeaders = [
        "content-type", "authorization", "x-client-version", "x-firebase-gmpid", "x-firebase-client", "x-firebase-appcheck",
        "x-goog-api-key", "x-firebase-locale",
    ]

    @Test(
        "a preflight with the Web SDK's headers passes on every kind of route",
        arguments: [
            (HTTPRequest.Method.post, Path.send), (.post, Path.signIn), (.post, Path.lookup), (.post, Path.token),
            (.post, "/identitytoolkit.googleapis.com/v2/accounts/mfaSignIn:start"), (.get, "/identitytoolkit.googleapis.com/v1/recaptchaParams"),
            (.get, Path.jwks), (.patch, Path.config), (.delete, Path.accounts),
        ])
    func preflight(_ method: HTTPRequest.Method, _ path: String) async throws {
        try await withFlint { api in
            let reply = try await api.call(
                .options, path,
                headers: [
                    .origin: Self.origin, .accessControlRequestMethod: method.rawValue,
                    .accessControlRequestHeaders: Self.webSDKHeaders.joined(separator: ","),
                ])
            #expect(reply.status == .noContent, "\(reply.text)")
            #expect(reply.headers[.accessControlAllowOrigin] == Self.origin)
            let allowed = Set(
                (reply.headers[.accessControlAllowHeaders] ?? "").lowercased().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
            for header in Self.webSDKHeaders { #expect(allowed.contains(header), "\(header) not in \(allowed.sorted())") }
            let methods = (reply.headers[.accessControlAllowMethods] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(methods.contains(method.rawValue))
        }
    }
}
