import Crypto
import FlintAuthTestSupport
import FlintCore
import FlintTesting
import Foundation
import Testing

@testable import FlintAuth

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A stand-in OpenID Connect provider on loopback: discovery document, keys, an authorization endpoint where the
/// user signs in at once (a single-use code, sent back to `redirect_uri` with the state; `login_hint=deny` refuses),
/// and a token endpoint that exchanges a code once, for its `redirect_uri` and a PKCE verifier matching its S256
/// challenge, for an ID token with the request's nonce.
final class StandInProvider: Sendable {
    let key: SigningKey
    private let server: ScriptedHTTPServer
    private let codes: Locked<[String: [String: String]]>
    /// The claims of whoever signs in next.
    let user: Locked<[String: JSONValue]>

    init() throws {
        let key = try SigningKey.generate(now: Instant(Date()), random: SystemRandom())
        let codes = Locked<[String: [String: String]]>([:])
        let user = Locked<[String: JSONValue]>(["sub": "emp-1", "email": "lin@corp.example", "email_verified": true, "name": "Lin"])
        let port = Locked(0)
        let server = try ScriptedHTTPServer { request in
            StandInProvider.answer(request, issuer: "http://127.0.0.1:\(port.current)", key: key, codes: codes, user: user)
        }
        port.withLock { $0 = server.port }
        self.server = server
        (self.key, self.codes, self.user) = (key, codes, user)
    }

    /// `http://127.0.0.1:<port>`.
    var issuer: String { "http://127.0.0.1:\(server.port)" }

    func stop() { server.stop() }

    private static func answer(
        _ request: ScriptedHTTPServer.Request, issuer: String, key: SigningKey, codes: Locked<[String: [String: String]]>,
        user: Locked<[String: JSONValue]>
    ) -> ScriptedHTTPServer.Reply {
        let path = String(request.target.prefix { $0 != "?" })
        let query = fields(URLComponents(string: request.target)?.percentEncodedQuery ?? "")
        switch (request.method, path) {
        case ("GET", "/.well-known/openid-configuration"):
            return json([
                "issuer": .string(issuer), "jwks_uri": .string(issuer + "/keys"), "authorization_endpoint": .string(issuer + "/authorize"),
                "token_endpoint": .string(issuer + "/token"),
            ])
        case ("GET", "/keys"):
            return json(["keys": .array([.object(((try? key.jwk()) ?? [:]).mapValues(JSONValue.string))])])
        case ("GET", "/authorize"):
            let code = "code-\(UUID().uuidString)"
            codes.withLock { $0[code] = query }
            var back = [("code", code), ("state", query["state"] ?? "")]
            if query["login_hint"] == "deny" { back = [("error", "access_denied"), ("state", query["state"] ?? "")] }
            return ScriptedHTTPServer.Reply(status: 302, headers: ["Location": (query["redirect_uri"] ?? "") + "?" + FormEncoding.encode(back)])
        case ("POST", "/token"):
            let form = fields(request.body)
            let started = codes.withLock { $0.removeValue(forKey: form["code"] ?? "") }
            let challenge = Base64URL.encode(Array(SHA256.hash(data: Array((form["code_verifier"] ?? "").utf8))))
            guard let started, started["redirect_uri"] == form["redirect_uri"], started["code_challenge"] == challenge else {
                return json(["error": "invalid_grant"], status: 400)
            }
            let now = Int(Date().timeIntervalSince1970)
            var claims = user.current
            claims["iss"] = .string(issuer)
            claims["aud"] = .string(started["client_id"] ?? "")
            (claims["iat"], claims["exp"]) = (.number(Double(now)), .number(Double(now + 300)))
            claims["nonce"] = started["nonce"].map(JSONValue.string)
            let token = (try? OAuthFlowTests.token(claims, key: key)) ?? ""
            return json(["id_token": .string(token), "access_token": "stand-in-access", "token_type": "Bearer"])
        default:
            return json(["error": "not_found"], status: 404)
        }
    }

    private static func json(_ value: JSONValue, status: Int = 200) -> ScriptedHTTPServer.Reply {
        ScriptedHTTPServer.Reply(
            status: status, headers: ["Content-Type": "application/json"], body: String(decoding: value.serialized(), as: UTF8.self))
    }

    /// A query or form body's fields, percent-decoded.
    private static func fields(_ text: String) -> [String: String] {
        var out: [String: String] = [:]
        for item in URLComponents(string: "?" + text.replacingOccurrences(of: "+", with: "%20"))?.queryItems ?? [] {
            out[item.name] = item.value ?? ""
        }
        return out
    }
}

extension FlintProcess {
    /// Configures `oidc.corp` (the stand-in) and makes `com.example.app` one of the project's iOS apps.
    func configureWebSignIn(issuer: String) async throws {
        let resource: JSONValue = [
            "enabled": true, "clientId": "corp-client", "clientSecret": "corp-secret", "issuer": .string(issuer), "displayName": "Corp",
        ]
        let (status, data) = try await send(
            "POST", "/identitytoolkit.googleapis.com/v2/projects/demo-flint/oauthIdpConfigs?oauthIdpConfigId=oidc.corp",
            body: Data(resource.serialized()), headers: ["Authorization": "Bearer owner"])
        #expect(status == 200, "\(String(decoding: data, as: UTF8.self))")
        try await patchConfig(
            ["flint": ["appLinks": ["apple": ["teamId": "ABCDE12345", "bundleIds": ["com.example.app"]]]]], updateMask: "flint.appLinks")
    }
}

/// Plays the browser of a provider's web sign-in: follows the handler's and the provider's redirects until the app's
/// URL scheme, and hands that to `canHandle(_:)` (unless told to stay on the page). Records what it opened and closed.
final class RedirectBrowser: NSObject, AuthUIDelegate, @unchecked Sendable {
    let auth: Auth
    let follows: Bool
    let opened = EventLog<URL>()
    let dismissals = Locked(0)
    let failures = Locked<[String]>([])

    // Built anywhere; the delegate methods themselves run on the main actor, as AuthUIDelegate's do.
    nonisolated init(auth: Auth, follows: Bool = true) {
        (self.auth, self.follows) = (auth, follows)
    }

    #if os(iOS) || os(tvOS) || os(visionOS)
        func present(_ viewControllerToPresent: UIViewController, animated flag: Bool, completion: (() -> Void)?) {}
        func dismiss(animated flag: Bool, completion: (() -> Void)?) {}
    #else
        func presentAppVerification(_ url: URL) {
            opened.record(url)
            guard follows else { return }
            let (auth, failures) = (self.auth, self.failures)
            Task {
                do {
                    _ = auth.canHandle(try await Self.follow(url))
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
        }

        func dismissAppVerification() { dismissals.withLock { $0 += 1 } }
    #endif

    /// GETs `url` and each redirect after it until one leaves http(s); that URL.
    static func follow(_ url: URL) async throws -> URL {
        var next = url
        for _ in 0..<6 {
            let (status, body, location) = try await Browser.request(next)
            guard (300..<400).contains(status), let location, let target = URL(string: location, relativeTo: next)?.absoluteURL else {
                throw FlintProcessError(message: "\(next) answered \(status): \(body)")
            }
            guard target.scheme == "http" || target.scheme == "https" else { return target }
            next = target
        }
        throw FlintProcessError(message: "too many redirects from \(url)")
    }
}
