import Crypto
import FlintCore
import FlintServerTestSupport
import FlintTesting
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Synchronization
import Testing

@testable import FlintServer

extension Path {
    static let signInWithIdp = "\(v1)/accounts:signInWithIdp"
    static let verifyAssertion = "\(v3)/verifyAssertion"
    static let defaultIdps = "/identitytoolkit.googleapis.com/v2/projects/\(project)/defaultSupportedIdpConfigs"
    static let oauthIdps = "/identitytoolkit.googleapis.com/v2/projects/\(project)/oauthIdpConfigs"
    static let samlIdps = "/identitytoolkit.googleapis.com/v2/projects/\(project)/inboundSamlConfigs"
}

/// A stand-in identity provider on loopback with its own RSA keys: serves its JWKS at `/keys` (counting fetches) and
/// an OIDC discovery document naming itself the issuer, and signs ID tokens.
final class StandInIssuer: Sendable {
    private struct State {
        var keys: [SigningKey]
        var fetches = 0
        var port = 0
        /// The ID token the token endpoint answers for the code `good-code`.
        var codeToken: String?
        /// The token endpoint's requests: form body and `Authorization` header.
        var tokenRequests: [(body: String, authorization: String?)] = []
        /// The paths the authorization and token endpoints were reached at.
        var endpointPaths: [String] = []
        /// Google's side of the access-token flow: access token → (token information, user information).
        var accessTokens: [String: (info: JSONValue, user: JSONValue)] = [:]
        /// The authorization endpoint's requests, and the codes it issued with the request each answers.
        var authorizeRequests: [[String: String]] = []
        var authorizations: [String: [String: String]] = [:]
        /// The clock its tokens are issued by: the node's (a test's clock stands still while the test runs long).
        var clock: any WallClock = SystemClock()
        /// Who signs in at the authorization endpoint: the claims of the ID token its codes are exchanged for.
        var user: [String: JSONValue] = ["sub": "emp-9", "email": "lin@corp.example", "email_verified": true]
    }

    private let state: Mutex<State>

    init() throws {
        state = Mutex(State(keys: [try Self.newKey()]))
    }

    static func newKey() throws -> SigningKey {
        try SigningKey.generate(now: Instant(Date()), random: SystemRandom())
    }

    /// The key tokens are signed with unless told.
    var key: SigningKey { state.withLock { $0.keys[0] } }
    /// How many times the JWKS was fetched.
    var fetches: Int { state.withLock { $0.fetches } }
    /// `http://127.0.0.1:<port>`.
    var issuer: String { "http://127.0.0.1:\(state.withLock { $0.port })" }
    /// The JWKS address.
    var jwksURL: String { issuer + "/keys" }

    /// The time its tokens are issued at.
    var now: Instant { state.withLock { $0.clock }.now() }

    /// Issues tokens by `clock` from now on (the node's, so its tokens are never from its future).
    func follow(_ clock: any WallClock) {
        state.withLock { $0.clock = clock }
    }

    /// The ID token the token endpoint answers for `good-code`.
    func answerCode(with token: String) {
        state.withLock { $0.codeToken = token }
    }

    /// The token endpoint's requests so far.
    var tokenRequests: [(body: String, authorization: String?)] { state.withLock { $0.tokenRequests } }

    /// Makes `accessToken` known to the Google stand-in, with its token information and user information.
    func knowAccessToken(_ accessToken: String, info: JSONValue, user: JSONValue) {
        state.withLock { $0.accessTokens[accessToken] = (info, user) }
    }

    /// The paths the authorization and token endpoints were reached at, in order.
    var endpointPaths: [String] { state.withLock { $0.endpointPaths } }

    /// The authorization endpoint's requests so far.
    var authorizeRequests: [[String: String]] { state.withLock { $0.authorizeRequests } }

    /// Makes `claims` the user who signs in at the authorization endpoint from now on.
    func signIn(as claims: [String: JSONValue]) {
        state.withLock { $0.user = claims }
    }

    /// Publishes another key (a rotation).
    func publish(_ key: SigningKey) {
        state.withLock { $0.keys.append(key) }
    }

    /// A signed token with `claims`; `kid` and `alg` as told, else the key's own and RS256.
    func token(_ claims: [String: JSONValue], key: SigningKey? = nil, kid: String? = nil, alg: String = "RS256") throws -> String {
        let signer = key ?? self.key
        let header: JSONValue = ["alg": .string(alg), "kid": .string(kid ?? signer.kid), "typ": "JWT"]
        let input = Base64URL.encode(header.serialized()) + "." + Base64URL.encode(JSONValue.object(claims).serialized())
        return input + "." + Base64URL.encode(try signer.sign(Array(input.utf8)))
    }

    /// Runs `body` with the issuer listening on a loopback port.
    func serve(_ body: @escaping @Sendable () async throws -> Void) async throws {
        let router = Router()
        let jwks: @Sendable (Request, BasicRequestContext) async throws -> Response = { _, _ in
            let keys = self.state.withLock { state -> [SigningKey] in
                state.fetches += 1
                return state.keys
            }
            let list = try keys.map { key in JSONValue.object(try key.jwk().mapValues(JSONValue.string)) }
            return Self.json(["keys": .array(list)])
        }
        // The OIDC issuer's, Apple's and Google's key paths.
        router.get("/keys", use: jwks)
        router.get("/auth/keys", use: jwks)
        router.get("/oauth2/v3/certs", use: jwks)
        // Microsoft's and Yahoo's.
        router.get("/common/discovery/v2.0/keys", use: jwks)
        router.get("/openid/v1/certs", use: jwks)
        // The authorization endpoints of the OIDC issuer, Google and Apple: the user signs in at once.
        let authorize: @Sendable (Request, BasicRequestContext) async throws -> Response = { request, _ in
            self.state.withLock { $0.endpointPaths.append(request.uri.path) }
            return try self.authorize(request.uri.queryParameters.reduce(into: [String: String]()) { $0[String($1.key)] = String($1.value) })
        }
        router.get("/authorize", use: authorize)
        router.get("/o/oauth2/v2/auth", use: authorize)
        router.get("/auth/authorize", use: authorize)
        // The router takes a constant segment over a parameter without going back, and `/common/…` holds the keys.
        router.get("/common/oauth2/v2.0/authorize", use: authorize)
        router.get("/:tenant/oauth2/v2.0/authorize", use: authorize)
        router.get("/oauth2/request_auth", use: authorize)
        let token: @Sendable (Request, BasicRequestContext) async throws -> Response = { request, _ in
            let body = String(buffer: try await request.body.collect(upTo: 1 << 16))
            let token = self.state.withLock { state -> String? in
                state.tokenRequests.append((body, request.headers[.authorization]))
                state.endpointPaths.append(request.uri.path)
                return state.codeToken
            }
            let form = FormDecoding.decode(body)
            if form["code"]?.hasPrefix("auth-") == true { return try self.exchange(form) }
            guard body.contains("code=good-code"), let token else { return Self.json(["error": "invalid_grant"], status: .badRequest) }
            return Self.json(["id_token": .string(token), "access_token": "oidc-access", "token_type": "Bearer"])
        }
        router.post("/token", use: token)
        router.post("/auth/token", use: token)
        router.post("/common/oauth2/v2.0/token", use: token)
        router.post("/:tenant/oauth2/v2.0/token", use: token)
        router.post("/oauth2/get_token", use: token)
        router.post("/tokeninfo") { request, _ -> Response in
            let body = String(buffer: try await request.body.collect(upTo: 1 << 16))
            let access = body.hasPrefix("access_token=") ? String(body.dropFirst(13)) : ""
            guard let known = self.state.withLock({ $0.accessTokens[access] }) else {
                return Self.json(["error": "invalid_token"], status: .badRequest)
            }
            return Self.json(known.info)
        }
        router.get("/v1/userinfo") { request, _ -> Response in
            let bearer = request.headers[.authorization].map { String($0.dropFirst(7)) } ?? ""
            guard let known = self.state.withLock({ $0.accessTokens[bearer] }) else {
                return Self.json(["error": "invalid_token"], status: .unauthorized)
            }
            return Self.json(known.user)
        }
        router.get("/.well-known/openid-configuration") { _, _ -> Response in
            Self.json([
                "issuer": .string(self.issuer), "jwks_uri": .string(self.jwksURL), "token_endpoint": .string(self.issuer + "/token"),
                "authorization_endpoint": .string(self.issuer + "/authorize"),
            ])
        }
        try await Application(router: router).test(.live) { client in
            guard let port = client.port else { throw CancellationError() }
            self.state.withLock { $0.port = port }
            try await body()
        }
    }

    /// Issues a single-use code for the request and sends the browser back to `redirect_uri` with it (or with
    /// `error=access_denied` when `login_hint` is `deny`); for `response_mode=form_post` it answers the fields the
    /// browser would post, as JSON.
    private func authorize(_ query: [String: String]) throws -> Response {
        let code = "auth-\(UUID().uuidString)"
        state.withLock { state in
            state.authorizeRequests.append(query)
            state.authorizations[code] = query
        }
        var fields = [("code", code), ("state", query["state"] ?? "")]
        if query["login_hint"] == "deny" { fields = [("error", "access_denied"), ("state", query["state"] ?? "")] }
        if query["response_mode"] == "form_post" {
            return Self.json(.object(Dictionary(uniqueKeysWithValues: fields.map { ($0.0, JSONValue.string($0.1)) })))
        }
        let location = (query["redirect_uri"] ?? "") + "?" + URLQuery.encode(fields)
        return Response(status: .found, headers: [.location: location])
    }

    /// Exchanges an issued code once, for the same `redirect_uri` and a verifier matching its S256 challenge: an ID
    /// token for the signed-in user, with the request's nonce, issued by the provider the client belongs to.
    private func exchange(_ form: [String: String]) throws -> Response {
        let request = state.withLock { $0.authorizations.removeValue(forKey: form["code"] ?? "") }
        let challenge = Base64URL.encode(Array(SHA256.hash(data: Array((form["code_verifier"] ?? "").utf8))))
        guard let request, request["redirect_uri"] == form["redirect_uri"], request["code_challenge"] == challenge else {
            return Self.json(["error": "invalid_grant"], status: .badRequest)
        }
        let client = request["client_id"] ?? ""
        let issuer =
            switch client {
            case googleClientID: "https://accounts.google.com"
            case appleServicesID: "https://appleid.apple.com"
            case microsoftClientID: "https://login.microsoftonline.com/\(state.withLock { $0.user["tid"]?.stringValue ?? "" })/v2.0"
            case yahooClientID: "https://api.login.yahoo.com"
            default: self.issuer
            }
        let now = Int(now.secondsSince1970)
        var claims = state.withLock { $0.user }
        claims["iss"] = .string(issuer)
        claims["aud"] = .string(client)
        (claims["iat"], claims["exp"]) = (.number(Double(now)), .number(Double(now + 300)))
        if let nonce = request["nonce"] { claims["nonce"] = .string(nonce) }
        return Self.json(["id_token": .string(try token(claims)), "access_token": "redirect-access", "token_type": "Bearer"])
    }

    private static func json(_ value: JSONValue, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json", .cacheControl: "public, max-age=3600"],
            body: .init(byteBuffer: ByteBuffer(bytes: value.serialized())))
    }
}

extension API {
    /// Configures a provider through the admin API (`defaultSupportedIdpConfigs` or `oauthIdpConfigs`).
    func configureIdp(_ id: String, _ resource: JSONValue) async throws {
        let base = id.hasPrefix("oidc.") ? "\(Path.oauthIdps)?oauthIdpConfigId=\(id)" : "\(Path.defaultIdps)?idpId=\(id)"
        let reply = try await admin(.post, base, body: String(decoding: resource.serialized(), as: UTF8.self))
        #expect(reply.status == .ok, "IdP config create failed: \(reply.text)")
    }

    /// `signInWithIdp` with a `postBody` made of `fields`.
    func signInWithIdp(
        _ fields: [(String, String)], idToken: String? = nil, returnIdpCredential: Bool = true, path: String = Path.signInWithIdp
    ) async throws -> Reply {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let postBody = fields.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")" }.joined(separator: "&")
        var body: [String: JSONValue] = [
            "requestUri": "http://localhost", "postBody": .string(postBody), "returnSecureToken": true,
            "returnIdpCredential": .bool(returnIdpCredential),
        ]
        if let idToken { body["idToken"] = .string(idToken) }
        return try await postRaw(path, String(decoding: JSONValue.object(body).serialized(), as: UTF8.self))
    }
}

/// The services ID and the app's bundle ID the tests configure for Sign in with Apple, and Google's client ID.
let appleServicesID = "com.example.signin"
let appleBundleID = "com.example.app"
let googleClientID = "1234-abc.apps.googleusercontent.com"
let microsoftClientID = "6731de76-14a6-49ae-97bc-6eba6914391e"
let yahooClientID = "dj0yJmk9yahoo-client"
let rawNonce = "a raw nonce 0123456789"

/// Runs `body` against a node whose Apple and Google keys come from a stand-in issuer on loopback, with both
/// providers and an OIDC provider (`oidc.corp`, found through the stand-in's discovery document) configured.
func withIdentityProviders(_ body: @escaping @Sendable (API, StandInIssuer) async throws -> Void) async throws {
    let issuer = try StandInIssuer()
    try await issuer.serve {
        try await withFlint(configure: { settings in
            settings.identityProviderStandIns = ["apple.com": issuer.issuer, "google.com": issuer.issuer]
        }) { api in
            issuer.follow(api.clock)
            try await api.configureIdp(
                "apple.com", ["enabled": true, "clientId": .string(appleServicesID), "appleSignInConfig": ["bundleIds": [.string(appleBundleID)]]])
            try await api.configureIdp("google.com", ["enabled": true, "clientId": .string(googleClientID), "clientSecret": "s3cret"])
            try await api.configureIdp(
                "oidc.corp",
                ["enabled": true, "clientId": "corp-client", "clientSecret": "corp-secret", "issuer": .string(issuer.issuer), "displayName": "Corp"])
            try await body(api, issuer)
        }
    }
}

/// Claims of a Sign in with Apple ID token, as Apple writes them (`email_verified` as a string).
func appleClaims(_ api: API, sub: String = "001234.apple", email: String? = "x1y2@privaterelay.appleid.com", nonce: String? = rawNonce)
    -> [String: JSONValue]
{
    let now = api.clock.now().secondsSince1970
    var claims: [String: JSONValue] = [
        "iss": "https://appleid.apple.com", "aud": .string(appleBundleID), "sub": .string(sub), "iat": .number(Double(now)),
        "exp": .number(Double(now + 600)),
    ]
    if let email { (claims["email"], claims["email_verified"], claims["is_private_email"]) = (.string(email), "true", "true") }
    if let nonce { claims["nonce"] = .string(ProviderNonceRule.sha256Hex(nonce)) }
    return claims
}

/// Claims of a Google ID token.
func googleClaims(_ api: API, sub: String = "1093", email: String = "ada@gmail.com", verified: Bool = true) -> [String: JSONValue] {
    let now = api.clock.now().secondsSince1970
    return [
        "iss": "https://accounts.google.com", "aud": .string(googleClientID), "sub": .string(sub), "iat": .number(Double(now)),
        "exp": .number(Double(now + 3600)), "email": .string(email), "email_verified": .bool(verified), "name": "Ada Lovelace",
        "given_name": "Ada", "family_name": "Lovelace", "picture": "https://example.com/ada.png",
    ]
}
