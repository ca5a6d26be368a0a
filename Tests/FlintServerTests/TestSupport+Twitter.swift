import FlintCore
import FlintServerTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Synchronization
import Testing

@testable import FlintServer

/// The X app the tests configure for `twitter.com`: its API key and secret.
let twitterKey = "tw-consumer-key"
let twitterSecret = "tw-consumer-secret"

/// A stand-in for X's API on loopback, checking every request's OAuth 1.0a signature as X does (consumer secret, then
/// the request or access token's secret) and answering its errors: the request token (`POST /oauth/request_token`),
/// the user's authorization (`GET /oauth/authenticate`: the user signs in at once, or cancels), the access token
/// (`POST /oauth/access_token`, a verifier once) and the user (`GET /1.1/account/verify_credentials.json`, `401` for
/// an unknown token).
final class StandInTwitter: Sendable {
    struct User: Sendable {
        var id: String
        var screenName: String
        var name: String
        var email: String?
    }

    private struct State {
        var port = 0
        /// Access token → its secret and user.
        var accessTokens: [String: (secret: String, user: User)] = [:]
        /// Request token → its secret and callback; verifier → its request token.
        var requestTokens: [String: (secret: String, callback: String)] = [:]
        var verifiers: [String: String] = [:]
        /// Who signs in at the authorization page; `nil`: the user cancels.
        var signingIn: User? = User(id: "7001", screenName: "lin_x", name: "Lin X", email: "lin@x.example")
        var nonces: Set<String> = []
        /// Whether X is over capacity: every call answers `503`.
        var down = false
        var verifyCalls = 0
    }

    private let state = Mutex(State())

    /// `http://127.0.0.1:<port>`.
    var origin: String { "http://127.0.0.1:\(state.withLock { $0.port })" }
    /// How many times `verify_credentials` was called.
    var verifyCalls: Int { state.withLock { $0.verifyCalls } }

    /// Issues an access token for `user`, as X's app flow would have given the app.
    func issueAccessToken(for user: User) -> (token: String, secret: String) {
        let issued = ("\(user.id)-acc\(UUID().uuidString.prefix(8))", "accsec-\(UUID().uuidString)")
        state.withLock { $0.accessTokens[issued.0] = (issued.1, user) }
        return issued
    }

    /// Makes `user` the one who signs in at the authorization page from now on (`nil`: the user cancels).
    func signIn(as user: User?) {
        state.withLock { $0.signingIn = user }
    }

    /// Makes X answer every call `503` (over capacity), or serve again.
    func setDown(_ down: Bool) {
        state.withLock { $0.down = down }
    }

    /// Runs `body` with X listening on a loopback port.
    func serve(_ body: @escaping @Sendable () async throws -> Void) async throws {
        let router = Router()
        router.add(middleware: OverCapacity(twitter: self))
        router.post("/oauth/request_token") { request, _ -> Response in
            let oauth = try self.authenticate(request, method: "POST", tokenSecret: { _ in "" })
            guard let oauth, let callback = oauth["oauth_callback"] else { return Self.couldNotAuthenticate() }
            let issued = ("req-\(UUID().uuidString)", "reqsec-\(UUID().uuidString)")
            self.state.withLock { $0.requestTokens[issued.0] = (issued.1, callback) }
            return Self.form([("oauth_token", issued.0), ("oauth_token_secret", issued.1), ("oauth_callback_confirmed", "true")])
        }
        router.get("/oauth/authenticate") { request, _ -> Response in
            let token = request.uri.queryParameters["oauth_token"].map(String.init) ?? ""
            let (callback, user) = self.state.withLock { ($0.requestTokens[token]?.callback, $0.signingIn) }
            guard let callback else { return Response(status: .badRequest) }
            let separator = callback.contains("?") ? "&" : "?"
            guard user != nil else { return Response(status: .found, headers: [.location: callback + separator + "denied=" + token]) }
            let verifier = "ver-\(UUID().uuidString)"
            self.state.withLock { $0.verifiers[verifier] = token }
            let query = URLQuery.encode([("oauth_token", token), ("oauth_verifier", verifier)])
            return Response(status: .found, headers: [.location: callback + separator + query])
        }
        router.post("/oauth/access_token") { request, _ -> Response in
            let oauth = try self.authenticate(request, method: "POST") { token in self.state.withLock { $0.requestTokens[token]?.secret } }
            guard let oauth, let token = oauth["oauth_token"], let verifier = oauth["oauth_verifier"] else { return Self.couldNotAuthenticate() }
            let user: User? = self.state.withLock { state in
                guard state.verifiers.removeValue(forKey: verifier) == token else { return nil }
                state.requestTokens[token] = nil
                return state.signingIn
            }
            guard let user else { return Response(status: .unauthorized, body: .init(byteBuffer: ByteBuffer(string: "Invalid request token."))) }
            let issued = self.issueAccessToken(for: user)
            return Self.form([
                ("oauth_token", issued.token), ("oauth_token_secret", issued.secret), ("user_id", user.id), ("screen_name", user.screenName),
            ])
        }
        router.get("/1.1/account/verify_credentials.json") { request, _ -> Response in
            self.state.withLock { $0.verifyCalls += 1 }
            let known = { (token: String) in self.state.withLock { $0.accessTokens[token]?.secret } }
            guard let oauth = try self.authenticate(request, method: "GET", tokenSecret: known), let token = oauth["oauth_token"],
                let user = self.state.withLock({ $0.accessTokens[token]?.user })
            else { return Self.json(["errors": [["code": .number(89), "message": "Invalid or expired token."]]], status: .unauthorized) }
            var answer: [String: JSONValue] = [
                "id": .number(Double(user.id) ?? 0), "id_str": .string(user.id), "screen_name": .string(user.screenName), "name": .string(user.name),
                "profile_image_url_https": .string("https://pbs.twimg.example/\(user.id)_normal.jpg"), "verified": false,
            ]
            if request.uri.queryParameters["include_email"] == "true", let email = user.email { answer["email"] = .string(email) }
            return Self.json(.object(answer))
        }
        try await Application(router: router).test(.live) { client in
            guard let port = client.port else { throw CancellationError() }
            self.state.withLock { $0.port = port }
            try await body()
        }
    }

    /// The request's OAuth parameters when its signature is the one X computes with the app's secret and the secret of
    /// its token (`tokenSecret`, `""` for none; `nil` for a token X does not know) and its nonce is new; else `nil`.
    private func authenticate(_ request: Request, method: String, tokenSecret: (String) -> String?) throws -> [String: String]? {
        guard let header = request.headers[.authorization], header.hasPrefix("OAuth ") else { return nil }
        var oauth: [String: String] = [:]
        for part in header.dropFirst(6).split(separator: ",") {
            let pair = part.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2, pair[1].hasPrefix("\""), pair[1].hasSuffix("\"") else { return nil }
            oauth[pair[0].removingPercentEncoding ?? ""] = String(pair[1].dropFirst().dropLast()).removingPercentEncoding
        }
        guard oauth["oauth_consumer_key"] == twitterKey, oauth["oauth_signature_method"] == "HMAC-SHA1", let signature = oauth["oauth_signature"],
            let nonce = oauth["oauth_nonce"], let secret = tokenSecret(oauth["oauth_token"] ?? "")
        else { return nil }
        let signed = oauth.filter { $0.key != "oauth_signature" }.map { ($0.key, $0.value) }
        let base = OAuth1.baseString(method: method, url: origin + request.uri.description, parameters: signed)
        guard OAuth1(consumerKey: twitterKey, consumerSecret: twitterSecret, tokenSecret: secret).sign(base) == signature else { return nil }
        let fresh = state.withLock { $0.nonces.insert(nonce).inserted }
        return fresh ? oauth : nil
    }

    /// Answers `503` while X is down.
    private struct OverCapacity: RouterMiddleware {
        let twitter: StandInTwitter

        func handle(_ request: Request, context: BasicRequestContext, next: (Request, BasicRequestContext) async throws -> Response) async throws
            -> Response
        {
            guard twitter.state.withLock({ $0.down }) else { return try await next(request, context) }
            return StandInTwitter.json(["errors": [["code": .number(130), "message": "Over capacity"]]], status: .serviceUnavailable)
        }
    }

    private static func couldNotAuthenticate() -> Response {
        json(["errors": [["code": .number(32), "message": "Could not authenticate you."]]], status: .unauthorized)
    }

    private static func form(_ fields: [(String, String)]) -> Response {
        Response(
            status: .ok, headers: [.contentType: "text/html; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: URLQuery.encode(fields))))
    }

    private static func json(_ value: JSONValue, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: value.serialized())))
    }
}

extension API {
    /// Configures `twitter.com` with the stand-in app's key and secret.
    func configureTwitter() async throws {
        try await configureIdp("twitter.com", ["enabled": true, "clientId": .string(twitterKey), "clientSecret": .string(twitterSecret)])
    }
}

/// Runs `body` against a node whose `twitter.com` is served by a stand-in X on loopback, configured.
func withTwitter(_ body: @escaping @Sendable (API, StandInTwitter) async throws -> Void) async throws {
    let twitter = StandInTwitter()
    try await twitter.serve {
        try await withFlint(configure: { $0.identityProviderStandIns = ["twitter.com": twitter.origin] }) { api in
            try await api.configureTwitter()
            try await body(api, twitter)
        }
    }
}
