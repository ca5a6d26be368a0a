import FlintCore
import FlintServerTestSupport
import FlintTesting
import Foundation
import Hummingbird
import Synchronization
import Testing

@testable import FlintServer

/// Facebook on loopback, answering as the Graph API does (v19.0): `debug_token` under the app token
/// (`APPID|SECRET`), `/me` (which checks `appsecret_proof`), the login dialog and the code exchange, and Limited
/// Login's JWKS; its errors are Graph API error objects (`{"error": {"message", "type", "code"}}`).
final class StandInFacebook: Sendable {
    static let appID = "4242424242"
    static let appSecret = "fb-app-secret"

    /// An access token Facebook issued: to which app, for which user, and whether it still is valid.
    struct Token: Sendable {
        var appID = StandInFacebook.appID
        var user: [String: JSONValue]
        /// `nil` while valid; else the `error` debug_token reports (an expiry, a revocation).
        var invalidBecause: String? = nil
    }

    private struct State {
        var port = 0
        var tokens: [String: Token] = [:]
        /// The login dialog's codes, with the request each answers.
        var codes: [String: [String: String]] = [:]
        /// Who signs in at the login dialog.
        var dialogUser: [String: JSONValue] = StandInFacebook.user()
        var meQueries: [[String: String]] = []
    }

    private let state = Mutex(State())
    /// Limited Login's signer (its keys are served at Facebook's JWKS path).
    let signer: StandInIssuer

    init() throws {
        signer = try StandInIssuer()
    }

    /// `http://127.0.0.1:<port>`.
    var origin: String { "http://127.0.0.1:\(state.withLock { $0.port })" }

    /// A `/me` answer.
    static func user(id: String = "10158000000000001", email: String? = "zoe@example.com", name: String = "Zoe Park") -> [String: JSONValue] {
        var me: [String: JSONValue] = [
            "id": .string(id), "name": .string(name), "first_name": "Zoe", "last_name": "Park",
            "picture": ["data": ["height": .number(50), "is_silhouette": false, "url": "https://scontent.example/zoe.jpg", "width": .number(50)]],
        ]
        if let email { me["email"] = .string(email) }
        return me
    }

    /// Makes `accessToken` one Facebook issued.
    func issue(_ accessToken: String, _ token: Token) {
        state.withLock { $0.tokens[accessToken] = token }
    }

    /// Makes `user` the one who signs in at the login dialog.
    func signIn(as user: [String: JSONValue]) {
        state.withLock { $0.dialogUser = user }
    }

    /// The queries of `/me` so far.
    var meQueries: [[String: String]] { state.withLock { $0.meQueries } }

    /// A Limited Login ID token for `user`, to the app, carrying `nonce` (the SDK is given the SHA-256 of the raw one).
    func limitedToken(_ api: API, sub: String = "10158000000000001", audience: String = StandInFacebook.appID, nonce: String? = nil) throws
        -> String
    {
        let now = Double(api.clock.now().secondsSince1970)
        var claims: [String: JSONValue] = [
            "iss": "https://www.facebook.com", "aud": .string(audience), "sub": .string(sub), "iat": .number(now), "exp": .number(now + 3600),
            "jti": "jti-1", "name": "Zoe Park", "given_name": "Zoe", "family_name": "Park", "email": "zoe@example.com",
            "picture": "https://platform-lookaside.example/zoe",
        ]
        if let nonce { claims["nonce"] = .string(ProviderNonceRule.sha256Hex(nonce)) }
        return try signer.token(claims)
    }

    /// Runs `body` with Facebook listening on a loopback port.
    func serve(_ body: @escaping @Sendable () async throws -> Void) async throws {
        let router = Router()
        router.get("/v19.0/debug_token") { request, _ in self.debugToken(LoopbackProvider.query(request)) }
        router.get("/v19.0/me") { request, _ in self.me(LoopbackProvider.query(request), bearer: LoopbackProvider.bearer(request)) }
        router.get("/v19.0/dialog/oauth") { request, _ in self.dialog(LoopbackProvider.query(request)) }
        router.post("/v19.0/oauth/access_token") { request, _ in self.exchange(try await LoopbackProvider.form(request)) }
        router.get("/.well-known/oauth/openid/jwks/") { _, _ in
            LoopbackProvider.json(["keys": [.object(try self.signer.key.jwk().mapValues(JSONValue.string))]])
        }
        try await LoopbackProvider.serve(router, listening: { port in self.state.withLock { $0.port = port } }, body)
    }

    /// A Graph API error answer.
    static func graphError(_ message: String, code: Int = 190, type: String = "OAuthException") -> Response {
        LoopbackProvider.json(
            ["error": ["message": .string(message), "type": .string(type), "code": .number(Double(code)), "fbtrace_id": "AbCdEf"]],
            status: .badRequest)
    }

    private func debugToken(_ query: [String: String]) -> Response {
        guard query["access_token"] == "\(Self.appID)|\(Self.appSecret)" else {
            return Self.graphError("Invalid OAuth access token signature.")
        }
        guard let token = state.withLock({ $0.tokens[query["input_token"] ?? ""] }) else {
            return LoopbackProvider.json([
                "data": ["error": ["code": .number(190), "message": "Invalid OAuth access token."], "is_valid": false, "scopes": []]
            ])
        }
        var data: [String: JSONValue] = [
            "app_id": .string(token.appID), "type": "USER", "application": "Stand-in app", "expires_at": .number(1_900_000_000),
            "is_valid": .bool(token.invalidBecause == nil), "scopes": ["email", "public_profile"], "user_id": token.user["id"] ?? .null,
        ]
        if let reason = token.invalidBecause { data["error"] = ["code": .number(190), "message": .string(reason), "subcode": .number(463)] }
        return LoopbackProvider.json(["data": .object(data)])
    }

    private func me(_ query: [String: String], bearer: String?) -> Response {
        state.withLock { $0.meQueries.append(query) }
        guard let bearer, let token = state.withLock({ $0.tokens[bearer] }), token.invalidBecause == nil else {
            return Self.graphError("Invalid OAuth access token.")
        }
        guard query["appsecret_proof"] == Facebook.appSecretProof(bearer, secret: Self.appSecret) else {
            return Self.graphError("Invalid appsecret_proof provided in the API argument", code: 100, type: "GraphMethodException")
        }
        return LoopbackProvider.json(.object(token.user))
    }

    private func dialog(_ query: [String: String]) -> Response {
        let code = "fbcode-\(UUID().uuidString)"
        state.withLock { $0.codes[code] = query }
        return LoopbackProvider.redirect(to: query["redirect_uri"] ?? "", [("code", code), ("state", query["state"] ?? "")])
    }

    /// The code exchange: once per code, for the same app, secret, `redirect_uri` and PKCE verifier; answers a fresh
    /// access token for the dialog's user.
    private func exchange(_ form: [String: String]) -> Response {
        guard form["client_id"] == Self.appID, form["client_secret"] == Self.appSecret else {
            return Self.graphError("Error validating client secret.", code: 1)
        }
        let asked = state.withLock { $0.codes.removeValue(forKey: form["code"] ?? "") }
        guard let asked, asked["redirect_uri"] == form["redirect_uri"],
            LoopbackProvider.pkceMatches(verifier: form["code_verifier"], challenge: asked["code_challenge"])
        else { return Self.graphError("This authorization code has been used.", code: 100) }
        let accessToken = "EAAG-\(UUID().uuidString)"
        state.withLock { $0.tokens[accessToken] = Token(user: $0.dialogUser) }
        return LoopbackProvider.json(["access_token": .string(accessToken), "token_type": "bearer", "expires_in": .number(5_183_944)])
    }
}
