import FlintCore
import FlintServerTestSupport
import FlintStore
import FlintTesting
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import FlintConsole
@testable import FlintServer

/// The headers every console answer carries, whatever answered it.
private func expectConsoleHeaders(_ reply: Reply, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(reply.headers[HTTPField.Name("X-Frame-Options")!] == "DENY", "\(what)", sourceLocation: sourceLocation)
    #expect(reply.headers[HTTPField.Name("X-Content-Type-Options")!] == "nosniff", "\(what)", sourceLocation: sourceLocation)
    #expect(reply.headers[HTTPField.Name("Referrer-Policy")!] == "no-referrer", "\(what)", sourceLocation: sourceLocation)
    #expect(reply.headers[.contentSecurityPolicy]?.contains("frame-ancestors 'none'") == true, "\(what)", sourceLocation: sourceLocation)
    #expect(reply.headers[.accessControlAllowOrigin] == nil, "no CORS on the console: \(what)", sourceLocation: sourceLocation)
}

@Suite("Console: its own route group and middleware, outside the API's")
struct ConsoleMiddlewareTests {
    static let origin: HTTPFields = [.origin: "https://elsewhere.example"]

    @Test("pages, redirects, the stylesheet and the script carry the console's headers and no CORS headers, even asked cross-origin")
    func headers() async throws {
        try await withFlint(modules: [ConsoleModule()]) { api in
            let page = try await api.call(.get, "/console/sign-in", headers: Self.origin)
            #expect(page.status == .ok && page.headers[.cacheControl] == "no-store")
            expectConsoleHeaders(page, "sign-in page")
            let redirect = try await api.call(.get, "/console/dashboard", headers: Self.origin)
            #expect(redirect.status == .seeOther && redirect.headers[.location] == "/console/sign-in")
            expectConsoleHeaders(redirect, "redirect")
            for path in [ConsoleStylesheet.path, ConsoleScript.path] {
                let file = try await api.call(.get, path, headers: Self.origin)
                #expect(file.status == .ok && file.headers[.cacheControl] == "max-age=300", "its own caching stays")
                expectConsoleHeaders(file, path)
            }
            // The API's answers still carry CORS headers.
            let apiReply = try await api.call(.get, Path.jwks, headers: Self.origin)
            #expect(apiReply.headers[.accessControlAllowOrigin] == "https://elsewhere.example")
        }
    }

    @Test("the API's credentials mean nothing on the console: a bad API key or bearer is not refused, the operator's is no session")
    func apiCredentials() async throws {
        let production: (inout ServerSettings) -> Void = {
            ($0.devMode, $0.apiKeys, $0.adminToken) = (false, ["the-key"], "boot-secret")
        }
        try await withFlint(modules: [ConsoleModule()], configure: production) { api in
            // The API refuses a wrong key outright; the console answers its page.
            #expect(try await api.call(.get, Path.jwks + "?key=wrong").status == .badRequest)
            let keyed = try await api.call(.get, "/console/sign-in?key=wrong")
            #expect(keyed.status == .ok && keyed.text.contains("Sign in"))
            let bearer = try await api.call(.get, "/console/sign-in", headers: [.authorization: "Bearer not-a-credential"])
            #expect(bearer.status == .ok)
            // The API's operator credential is no console session, and a form it posts is no admin call.
            let admin: HTTPFields = [.authorization: "Bearer boot-secret"]
            let users = try await api.call(.get, "/console/users", headers: admin)
            #expect(users.status == .seeOther && users.headers[.location] == "/console/sign-in")
            let signIn = try await api.call(
                .post, "/console/sign-in", body: "email=a%40example.com&password=x", contentType: "application/x-www-form-urlencoded",
                headers: admin)
            #expect(signIn.status == .unauthorized && signIn.headers[.contentType] == "text/html; charset=utf-8")
            let audit = "/flint/v1/projects/\(project)/auditEvents"
            let failed = try await api.call(.get, audit + "?kind=CONSOLE_SIGN_IN_FAILED", headers: admin)
            #expect(failed["auditEvents"]?.arrayValue?.count == 1)
            let adminActions = try await api.call(.get, audit + "?kind=ADMIN_ACTION", headers: admin)
            #expect(
                adminActions.status == .ok && (adminActions["auditEvents"]?.arrayValue ?? []).isEmpty, "the API's audit of admin calls does not run")
        }
    }

    @Test("behind a trusted proxy the console reads the client's address from X-Forwarded-For, as the API does")
    func clientAddress() async throws {
        try await withFlint(modules: [ConsoleModule()], configure: { $0.trustForwardedFor = true }) { api in
            let refused = try await api.call(
                .post, "/console/sign-in", body: "email=a%40example.com&password=x", contentType: "application/x-www-form-urlencoded",
                headers: [.xForwardedFor: "198.51.100.7, 203.0.113.9"])
            #expect(refused.status == .unauthorized)
            let events = try await api.auditEvents("kind=CONSOLE_SIGN_IN_FAILED")
            #expect(events.first?["ip"]?.stringValue == "203.0.113.9")
        }
    }

    @Test("a form past its limit is a console page (413, closing the connection), not Firebase's JSON; metrics count console routes")
    func errorPage() async throws {
        try await withFlint(modules: [ConsoleModule()]) { api in
            let big = "email=" + String(repeating: "a", count: ConsoleForm.maxBytes)
            let reply = try await api.call(.post, "/console/sign-in", body: big, contentType: "application/x-www-form-urlencoded")
            #expect(reply.status == .contentTooLarge)
            #expect(reply.headers[.contentType] == "text/html; charset=utf-8" && reply.text.contains("larger than the console accepts"))
            #expect(reply.json == .null, "no JSON error")
            #expect(reply.headers[.connection] == "close")
            expectConsoleHeaders(reply, "413 page")
            _ = try await api.call(.get, "/console/sign-in")
            let metrics = try await api.metrics()
            #expect(metrics["flint_http_request_duration_seconds_count{route=\"/console/sign-in\",method=\"POST\",status=\"413\"}"] == 1)
            #expect(metrics["flint_http_request_duration_seconds_count{route=\"/console/sign-in\",method=\"GET\",status=\"200\"}"] == 1)
            // What no route matches is answered as the API answers it, under /console too.
            let unknown = try await api.call(.get, "/console/no-such-page")
            #expect(unknown.status == .notFound && unknown.json["error"]?["status"] == "NOT_FOUND")
        }
    }

    /// A router with only the console's middleware, around a route that throws `error`.
    private static func throwing(_ error: any Error & Sendable) async throws -> Reply {
        let router = Router(context: FlintRequestContext.self)
        router.add(middleware: ConsoleMiddleware(pages: try ConsolePages(project: project, devMode: false)))
        router.get("/console/boom") { _, _ -> Response in throw error }
        return try await Application(router: router).test(.router) { client in
            let response = try await client.execute(uri: "/console/boom", method: .get)
            return Reply(status: response.status, headers: response.headers, text: String(buffer: response.body))
        }
    }

    private struct Unexpected: Error, Sendable {
        let secret = "store password hunter2"
    }

    @Test("an error a handler throws is a console page: an AuthError with its status and escaped message, anything else an opaque 500")
    func thrownErrors() async throws {
        let refused = try await Self.throwing(AuthError.invalidIDToken.with(detail: "<script>x</script>"))
        #expect(refused.status == AuthError.invalidIDToken.status)
        #expect(refused.text.contains("INVALID_ID_TOKEN : &lt;script&gt;x&lt;/script&gt;") && !refused.text.contains("<script>"))
        expectConsoleHeaders(refused, "refusal page")
        let unexpected = try await Self.throwing(Unexpected())
        #expect(unexpected.status == .internalServerError && unexpected.headers[.contentType] == "text/html; charset=utf-8")
        #expect(!unexpected.text.contains("hunter2") && !unexpected.text.contains("Unexpected"))
        expectConsoleHeaders(unexpected, "500 page")
    }
}
