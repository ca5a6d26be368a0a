import FlintCore
import FlintServerTestSupport
import Foundation
import Hummingbird
import NIOCore
import Synchronization
import Testing

@testable import FlintServer

/// GitHub on loopback, answering as github.com and api.github.com do: the OAuth app's authorize page and code exchange
/// (errors answered 200 with `error`, as GitHub does), the token check `POST /applications/{client_id}/token` (HTTP
/// Basic with the client ID and secret; 404 for a token not the app's), `GET /user` (401 `Bad credentials`; 403
/// without a `User-Agent`) and `GET /user/emails` (404 without the `user:email` scope).
final class StandInGitHub: Sendable {
    static let clientID = "Iv1.flintstandin"
    static let clientSecret = "gh-client-secret"

    /// An access token GitHub issued: to which app, for which user, with which emails (`nil`: no `user:email` scope).
    struct Token: Sendable {
        var clientID = StandInGitHub.clientID
        var user: [String: JSONValue]
        var emails: [JSONValue]? = [StandInGitHub.email("octo@example.com", primary: true)]
    }

    private struct State {
        var port = 0
        var tokens: [String: Token] = [:]
        var codes: [String: [String: String]] = [:]
        var dialogUser = Token(user: StandInGitHub.user())
        var userAgents: [String?] = []
    }

    private let state = Mutex(State())

    /// `http://127.0.0.1:<port>`.
    var origin: String { "http://127.0.0.1:\(state.withLock { $0.port })" }

    /// A `GET /user` answer.
    static func user(id: Double = 583_231, login: String = "octocat", publicEmail: String? = nil) -> [String: JSONValue] {
        [
            "login": .string(login), "id": .number(id), "node_id": "MDQ6VXNlcjU4MzIzMQ==", "avatar_url": "https://avatars.example/u/583231",
            "type": "User", "name": "The Octocat", "company": "@github", "email": publicEmail.map(JSONValue.string) ?? .null,
        ]
    }

    /// An entry of `GET /user/emails`.
    static func email(_ address: String, primary: Bool = false, verified: Bool = true) -> JSONValue {
        [
            "email": .string(address), "primary": .bool(primary), "verified": .bool(verified),
            "visibility": primary ? JSONValue.string("public") : .null,
        ]
    }

    /// Makes `accessToken` one GitHub issued.
    func issue(_ accessToken: String, _ token: Token) {
        state.withLock { $0.tokens[accessToken] = token }
    }

    /// Revokes `accessToken`.
    func revoke(_ accessToken: String) {
        state.withLock { $0.tokens[accessToken] = nil }
    }

    /// Makes `token` what the authorize page's codes are exchanged for.
    func signIn(as token: Token) {
        state.withLock { $0.dialogUser = token }
    }

    /// A code as the authorize page issues it to an app's own web flow that sent `redirectURI` (none: the app's
    /// registered callback).
    func issueCode(redirectURI: String?) -> String {
        let code = "ghcode\(UUID().uuidString.prefix(8))"
        state.withLock { $0.codes[code] = redirectURI.map { ["redirect_uri": $0] } ?? [:] }
        return code
    }

    /// The `User-Agent` of every API request so far.
    var userAgents: [String?] { state.withLock { $0.userAgents } }

    /// Runs `body` with GitHub listening on a loopback port.
    func serve(_ body: @escaping @Sendable () async throws -> Void) async throws {
        let router = Router()
        router.get("/login/oauth/authorize") { request, _ in
            let query = LoopbackProvider.query(request)
            let code = "ghcode\(UUID().uuidString.prefix(8))"
            self.state.withLock { $0.codes[code] = query }
            return LoopbackProvider.redirect(to: query["redirect_uri"] ?? "", [("code", code), ("state", query["state"] ?? "")])
        }
        router.post("/login/oauth/access_token") { request, _ in self.exchange(try await LoopbackProvider.form(request)) }
        router.post("/applications/:client/token") { request, context in
            let body = try await request.body.collect(upTo: 1 << 16)
            let sent = (try? JSONValue(parsing: Array(buffer: body)))?["access_token"]?.stringValue ?? ""
            return self.check(sent, client: context.parameters.get("client") ?? "", authorization: request.headers[.authorization])
        }
        router.get("/user") { request, _ in self.api(request) { LoopbackProvider.json(.object($0.user)) } }
        router.get("/user/emails") { request, _ in
            self.api(request) { token in
                guard let emails = token.emails else { return Self.message("Not Found", status: .notFound) }
                return LoopbackProvider.json(.array(emails))
            }
        }
        try await LoopbackProvider.serve(router, listening: { port in self.state.withLock { $0.port = port } }, body)
    }

    /// GitHub's REST error answer.
    private static func message(_ text: String, status: HTTPResponse.Status) -> Response {
        LoopbackProvider.json(
            ["message": .string(text), "documentation_url": "https://docs.github.com/rest", "status": .string(String(status.code))], status: status)
    }

    /// An API call with a bearer token: refused without a `User-Agent`, 401 for a token GitHub does not know.
    private func api(_ request: Request, _ answer: (Token) -> Response) -> Response {
        let agent = request.headers[.userAgent]
        state.withLock { $0.userAgents.append(agent) }
        guard agent != nil else {
            return Self.message(
                "Request forbidden by administrative rules. Please make sure your request has a User-Agent header", status: .forbidden)
        }
        guard let bearer = LoopbackProvider.bearer(request), let token = state.withLock({ $0.tokens[bearer] }) else {
            return Self.message("Bad credentials", status: .unauthorized)
        }
        return answer(token)
    }

    private func check(_ accessToken: String, client: String, authorization: String?) -> Response {
        let basic = "Basic " + ProviderKeys.base64(Array("\(Self.clientID):\(Self.clientSecret)".utf8))
        guard client == Self.clientID, authorization == basic else { return Self.message("Bad credentials", status: .unauthorized) }
        guard let token = state.withLock({ $0.tokens[accessToken] }), token.clientID == client else {
            return Self.message("Not Found", status: .notFound)
        }
        return LoopbackProvider.json([
            "id": .number(1), "token": .string(accessToken), "app": ["client_id": .string(client), "name": "Stand-in"],
            "scopes": ["user:email"], "user": .object(token.user),
        ])
    }

    /// The code exchange, answered 200 with `error` as GitHub does: once per code, for the app's secret and the same
    /// `redirect_uri`.
    private func exchange(_ form: [String: String]) -> Response {
        guard form["client_id"] == Self.clientID, form["client_secret"] == Self.clientSecret else {
            return LoopbackProvider.json([
                "error": "incorrect_client_credentials", "error_description": "The client_id and/or client_secret passed are incorrect.",
            ])
        }
        let asked = state.withLock { $0.codes.removeValue(forKey: form["code"] ?? "") }
        guard let asked, asked["redirect_uri"] == nil || asked["redirect_uri"] == form["redirect_uri"],
            LoopbackProvider.pkceMatches(verifier: form["code_verifier"], challenge: asked["code_challenge"])
        else {
            return LoopbackProvider.json(["error": "bad_verification_code", "error_description": "The code passed is incorrect or expired."])
        }
        let accessToken = "gho_\(UUID().uuidString.prefix(12))"
        state.withLock { $0.tokens[accessToken] = $0.dialogUser }
        return LoopbackProvider.json(["access_token": .string(accessToken), "token_type": "bearer", "scope": "user:email"])
    }
}
