import FlintCore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import NIOHTTP1
import Synchronization
import Testing

@testable import FlintServer

@Suite("flint admin-bridge: which requests it forwards, and how")
struct AdminBridgeForwardingTests {
    let forwarding = AdminBridgeForwarding(upstreamBase: "https://auth.example.com/", secret: "flint_secret")

    @Test(
        "the Admin SDKs' API paths are forwarded with their query, under the upstream's base",
        arguments: [
            "/identitytoolkit.googleapis.com/v1/projects/p/accounts:lookup",
            "/identitytoolkit.googleapis.com/v1/projects/p/accounts:batchGet?maxResults=2&nextPageToken=a%2Fb",
            "/identitytoolkit.googleapis.com/v2/projects/p/tenants/t-1",
            "/securetoken.googleapis.com/v1/token?key=k",
            "/www.googleapis.com/identitytoolkit/v3/relyingparty/publicKeys",
        ])
    func forwardsAPIPaths(target: String) throws {
        #expect(try forwarding.url(for: target) == "https://auth.example.com" + target)
    }

    @Test("dev mode's /emulator routes are refused with a code that says production has none")
    func refusesEmulatorRoutes() {
        for target in ["/emulator/v1/projects/p/verificationCodes", "/emulator/v1/projects/p/accounts", "/emulator"] {
            #expect(throws: AuthError.emulatorOnlyRoute) { try forwarding.url(for: target) }
        }
        #expect(AuthError.emulatorOnlyRoute.message.contains("production has none"))
    }

    @Test(
        "anything else, and a path that could climb out of an API prefix, is answered Not Found",
        arguments: [
            "/", "/console", "/metrics", "/.well-known/jwks.json", "/__/auth/handler", "identitytoolkit.googleapis.com/v1/x",
            "/identitytoolkit.googleapis.com/../emulator/v1/projects/p/accounts",
            "/identitytoolkit.googleapis.com/v1/%2e%2E/%2e%2e/console", "/identitytoolkit.googleapis.com/v1/..%2Fconsole",
            "/identitytoolkit.googleapis.com/./v1/x", "/securetoken.googleapis.com/v1/a%5C..",
        ])
    func refusesOtherPaths(target: String) {
        #expect(throws: AuthError.notFound) { try forwarding.url(for: target) }
    }

    @Test("Bearer owner becomes the credential; hop-by-hop, Host, Content-Length and forwarding headers are dropped")
    func rewritesRequestHeaders() {
        let incoming: HTTPFields = [
            .authorization: "Bearer owner", HTTPField.Name("Host")!: "127.0.0.1:9099", .contentLength: "12", .contentType: "application/json",
            .connection: "keep-alive, X-Hop", HTTPField.Name("X-Hop")!: "1", .transferEncoding: "chunked",
            HTTPField.Name("X-Forwarded-For")!: "203.0.113.9", HTTPField.Name("X-Forwarded-Proto")!: "https",
            HTTPField.Name("Forwarded")!: "for=203.0.113.9", HTTPField.Name("X-Real-IP")!: "203.0.113.9",
            .userAgent: "Python/Admin/7.7.0", HTTPField.Name("X-Client-Version")!: "Python/Admin/7.7.0", .expect: "100-continue",
        ]
        let headers = forwarding.requestHeaders(incoming)
        #expect(headers["authorization"] == ["Bearer flint_secret"])
        #expect(headers["user-agent"] == ["Python/Admin/7.7.0 flint-admin-bridge"])
        #expect(headers["content-type"] == ["application/json"])
        #expect(headers["x-client-version"] == ["Python/Admin/7.7.0"])
        for gone in [
            "host", "content-length", "connection", "x-hop", "transfer-encoding", "x-forwarded-for", "x-forwarded-proto", "forwarded", "x-real-ip",
            "expect",
        ] {
            #expect(headers[gone].isEmpty, "\(gone)")
        }
    }

    @Test("another Authorization goes as it came, and a request without one gets none")
    func keepsOtherAuthorization() {
        #expect(forwarding.requestHeaders([.authorization: "Bearer eyJ.id.token"])["authorization"] == ["Bearer eyJ.id.token"])
        #expect(forwarding.requestHeaders([.authorization: "bearer  owner "])["authorization"] == ["Bearer flint_secret"])
        let anonymous = forwarding.requestHeaders([:])
        #expect(anonymous["authorization"].isEmpty)
        #expect(anonymous["user-agent"] == ["flint-admin-bridge"])
    }

    @Test("the upstream's answer headers come back without hop-by-hop ones")
    func filtersResponseHeaders() {
        var upstream = HTTPHeaders()
        upstream.add(name: "Content-Type", value: "application/json; charset=UTF-8")
        upstream.add(name: "Content-Length", value: "42")
        upstream.add(name: "Connection", value: "close, X-Hop")
        upstream.add(name: "X-Hop", value: "1")
        upstream.add(name: "Transfer-Encoding", value: "chunked")
        upstream.add(name: "Vary", value: "Origin")
        let fields = AdminBridgeForwarding.responseHeaders(upstream)
        #expect(fields[.contentType] == "application/json; charset=UTF-8")
        #expect(fields[.contentLength] == "42")
        #expect(fields[.vary] == "Origin")
        #expect(fields[.connection] == nil && fields[HTTPField.Name("X-Hop")!] == nil && fields[.transferEncoding] == nil)
    }
}

@Suite("flint admin-bridge settings")
struct AdminBridgeSettingsTests {
    static func settings(host: String = "127.0.0.1", upstream: String = "https://auth.example.com", secret: String = "flint_s") -> AdminBridgeSettings
    {
        var settings = AdminBridgeSettings()
        settings.host = host
        settings.upstream = upstream
        settings.secret = secret
        return settings
    }

    @Test("a non-loopback listener is refused unless allowed in so many words")
    func refusesNonLoopback() throws {
        for host in ["127.0.0.1", "localhost", "::1", "[::1]", "127.0.0.2"] { try Self.settings(host: host).validate() }
        var open = Self.settings(host: "0.0.0.0")
        #expect(throws: AdminBridgeSettings.Invalid.self) { try open.validate() }
        open.allowNonLoopback = true
        try open.validate()
        #expect(!open.listensOnLoopback)
    }

    @Test(
        "the upstream is https, or plain http to loopback only; the secret is not empty",
        arguments: [
            ("http://auth.example.com", "flint_s"), ("auth.example.com", "flint_s"), ("https://auth.example.com?x=1", "flint_s"),
            ("https://auth.example.com", ""), ("https://auth.example.com", "flint_ s"), ("ftp://auth.example.com", "flint_s"),
        ])
    func refusesBadUpstreams(upstream: String, secret: String) {
        #expect(throws: AdminBridgeSettings.Invalid.self) { try Self.settings(upstream: upstream, secret: secret).validate() }
    }

    @Test("an https upstream with a path prefix, and http on loopback, are taken")
    func takesGoodUpstreams() throws {
        try Self.settings(upstream: "https://example.com/auth").validate()
        try Self.settings(upstream: "http://127.0.0.1:9099").validate()
    }
}

/// What the stand-in upstream saw of the one request it was sent.
private struct Seen: Sendable {
    var authorization: String?
    var userAgent: String?
    var forwardedFor: String?
    var target: String?
    var body: [UInt8] = []
}

@Suite("flint admin-bridge against a stand-in upstream")
struct AdminBridgeLiveTests {
    /// Firebase's error JSON as a production Flint answers it (bytes compared as they are).
    static let userNotFound =
        #"{"error":{"code":400,"message":"USER_NOT_FOUND","errors":[{"message":"USER_NOT_FOUND","domain":"global","reason":"invalid"}]}}"#

    /// Runs `body` with a bridge in front of an upstream router on loopback, the bridge tested in-process.
    private static func withBridge(
        upstream router: Router<BasicRequestContext>, timeout: Duration = .seconds(10), upstreamPort: Int? = nil,
        _ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        try await Application(router: router).test(.live) { upstream in
            var settings = AdminBridgeSettings()
            settings.upstream = "http://127.0.0.1:\(upstreamPort ?? upstream.port ?? 0)"
            settings.secret = "flint_bridge_secret"
            settings.timeout = timeout
            try settings.validate()
            let bridge = try AdminBridge(settings: settings, logger: Logger(label: "bridge-test"))
            do {
                try await bridge.application().test(.router) { client in try await body(client) }
            } catch {
                try await bridge.shutdown()
                throw error
            }
            try await bridge.shutdown()
        }
    }

    @Test("a call goes upstream with the credential, its target and its whole body; the answer comes back unchanged")
    func forwardsAndPassesErrorsThrough() async throws {
        let seen = Mutex(Seen())
        let router = Router()
        router.post("/identitytoolkit.googleapis.com/v1/projects/p/accounts:lookup") { request, _ -> Response in
            let bytes = try await request.body.collect(upTo: 1 << 22)
            seen.withLock {
                $0 = Seen(
                    authorization: request.headers[.authorization], userAgent: request.headers[.userAgent],
                    forwardedFor: request.headers[HTTPField.Name("X-Forwarded-For")!], target: request.head.path, body: Array(buffer: bytes))
            }
            return Response(
                status: .badRequest, headers: [.contentType: "application/json; charset=UTF-8", HTTPField.Name("X-Upstream")!: "flint"],
                body: .init(byteBuffer: ByteBuffer(string: Self.userNotFound)))
        }
        // A body bigger than one read, so it crosses the bridge in pieces.
        let sent = Array(#"{"localId":[""#.utf8) + Array(repeating: UInt8(ascii: "a"), count: 600_000) + Array(#""]}"#.utf8)
        try await Self.withBridge(upstream: router) { client in
            try await client.execute(
                uri: "/identitytoolkit.googleapis.com/v1/projects/p/accounts:lookup?alt=json", method: .post,
                headers: [.authorization: "Bearer owner", .userAgent: "Node/Admin/13", HTTPField.Name("X-Forwarded-For")!: "198.51.100.1"],
                body: ByteBuffer(bytes: sent)
            ) { response in
                #expect(response.status == .badRequest)
                #expect(String(buffer: response.body) == Self.userNotFound)
                #expect(response.headers[HTTPField.Name("X-Upstream")!] == "flint")
                #expect(response.headers[.contentType] == "application/json; charset=UTF-8")
            }
        }
        let upstreamSaw = seen.withLock { $0 }
        #expect(upstreamSaw.authorization == "Bearer flint_bridge_secret")
        #expect(upstreamSaw.userAgent == "Node/Admin/13 flint-admin-bridge")
        #expect(upstreamSaw.forwardedFor == nil)
        #expect(upstreamSaw.target == "/identitytoolkit.googleapis.com/v1/projects/p/accounts:lookup?alt=json")
        #expect(upstreamSaw.body == sent)
    }

    @Test("an emulator route is refused by the bridge itself and never reaches the upstream")
    func refusesEmulatorRoutesLocally() async throws {
        let reached = Mutex(false)
        let router = Router()
        router.delete("/emulator/v1/projects/p/accounts") { _, _ -> Response in
            reached.withLock { $0 = true }
            return Response(status: .ok)
        }
        try await Self.withBridge(upstream: router) { client in
            try await client.execute(uri: "/emulator/v1/projects/p/accounts", method: .delete, headers: [.authorization: "Bearer owner"]) {
                response in
                #expect(response.status == .notFound)
                let answer = try JSONSerialization.jsonObject(with: Data(String(buffer: response.body).utf8)) as? [String: Any]
                let error = answer?["error"] as? [String: Any]
                #expect((error?["message"] as? String)?.hasPrefix("EMULATOR_ONLY_ROUTE : ") == true)
                #expect(error?["status"] as? String == "NOT_FOUND")
            }
        }
        #expect(reached.withLock { $0 } == false)
    }

    @Test("an upstream that does not answer in time gets UPSTREAM_TIMEOUT (504)")
    func timesOut() async throws {
        let (held, release) = AsyncStream<Void>.makeStream()
        let router = Router()
        router.get("/identitytoolkit.googleapis.com/v2/projects/p/config") { _, _ -> Response in
            for await _ in held {}
            return Response(status: .ok)
        }
        try await Self.withBridge(upstream: router, timeout: .milliseconds(300)) { client in
            try await client.execute(uri: "/identitytoolkit.googleapis.com/v2/projects/p/config", method: .get) { response in
                #expect(response.status == .gatewayTimeout)
                #expect(String(buffer: response.body).contains("UPSTREAM_TIMEOUT"))
            }
            release.finish()
        }
    }

    @Test("an upstream nobody listens at gets UPSTREAM_UNAVAILABLE (502) with the reason")
    func unreachableUpstream() async throws {
        try await Self.withBridge(upstream: Router(), timeout: .milliseconds(500), upstreamPort: 1) { client in
            try await client.execute(uri: "/identitytoolkit.googleapis.com/v1/projects/p/accounts:lookup", method: .post) { response in
                #expect(response.status == .badGateway)
                #expect(String(buffer: response.body).contains("UPSTREAM_UNAVAILABLE : "))
            }
        }
    }
}
