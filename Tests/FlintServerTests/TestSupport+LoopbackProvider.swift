import Crypto
import FlintCore
import FlintServerTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import FlintServer

/// What the stand-ins of providers that are not OIDC issuers (Facebook, GitHub, Play Games) share: their router served
/// on a loopback port, and their answers' forms.
enum LoopbackProvider {
    /// An origin where nothing listens (a provider that is down). Connections are refused at once, but the HTTP client
    /// tries to connect again until the call's deadline (``ProviderKeys/requestTimeout``).
    static let closedOrigin = "http://127.0.0.1:1"
    /// How long a sign-in against a provider that is down may take: one provider call's bound, and some slack.
    static let downBound: Duration = .nanoseconds(ProviderKeys.requestTimeout.nanoseconds) + .seconds(5)

    /// Runs `body` with `router` listening on a loopback port, told to `listening` first.
    static func serve(
        _ router: Router<BasicRequestContext>, listening: @escaping @Sendable (Int) -> Void, _ body: @escaping @Sendable () async throws -> Void
    ) async throws {
        try await Application(router: router).test(.live) { client in
            guard let port = client.port else { throw CancellationError() }
            listening(port)
            try await body()
        }
    }

    /// A JSON answer.
    static func json(_ value: JSONValue, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: value.serialized())))
    }

    /// The browser sent back to `redirect_uri` with `fields`.
    static func redirect(to redirectURI: String, _ fields: [(String, String)]) -> Response {
        Response(status: .found, headers: [.location: redirectURI + "?" + URLQuery.encode(fields)])
    }

    /// The request's query, one value per name.
    static func query(_ request: Request) -> [String: String] {
        request.uri.queryParameters.reduce(into: [String: String]()) { $0[String($1.key)] = String($1.value) }
    }

    /// The request's form body.
    static func form(_ request: Request) async throws -> [String: String] {
        FormDecoding.decode(String(buffer: try await request.body.collect(upTo: 1 << 16)))
    }

    /// The bearer token of the request's `Authorization` header.
    static func bearer(_ request: Request) -> String? {
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer ") else { return nil }
        return String(header.dropFirst(7))
    }

    /// Whether a PKCE verifier matches the S256 challenge an authorization request carried (a request without one
    /// takes none).
    static func pkceMatches(verifier: String?, challenge: String?) -> Bool {
        guard let challenge else { return verifier == nil }
        return Base64URL.encode(Array(SHA256.hash(data: Array((verifier ?? "").utf8)))) == challenge
    }
}

/// A provider's stand-in served on loopback.
protocol LoopbackStandIn: Sendable {
    /// `http://127.0.0.1:<port>` while it serves.
    var origin: String { get }
    /// Runs `body` with the stand-in listening.
    func serve(_ body: @escaping @Sendable () async throws -> Void) async throws
}

extension StandInFacebook: LoopbackStandIn {}
extension StandInGitHub: LoopbackStandIn {}
extension StandInPlayGames: LoopbackStandIn {}

/// Runs `body` against a node with `providerID` configured (`clientID`, `secret`) and served by `standIn`, or by
/// `origin` when given.
func withStandIn<StandIn: LoopbackStandIn>(
    _ standIn: StandIn, providerID: String, clientID: String, secret: String, origin: String? = nil,
    _ body: @escaping @Sendable (API, StandIn) async throws -> Void
) async throws {
    try await standIn.serve {
        try await withFlint(configure: { $0.identityProviderStandIns = [providerID: origin ?? standIn.origin] }) { api in
            try await api.configureIdp(providerID, ["enabled": true, "clientId": .string(clientID), "clientSecret": .string(secret)])
            try await body(api, standIn)
        }
    }
}
