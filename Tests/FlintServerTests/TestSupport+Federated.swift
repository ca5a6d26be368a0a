import FlintCore
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
}

/// A stand-in identity provider on loopback with its own RSA keys: serves its JWKS at `/keys` (counting fetches) and
/// an OIDC discovery document naming itself the issuer, and signs ID tokens.
final class StandInIssuer: Sendable {
    private struct State {
        var keys: [SigningKey]
        var fetches = 0
        var port = 0
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
        router.get("/keys") { _, _ -> Response in
            let keys = self.state.withLock { state -> [SigningKey] in
                state.fetches += 1
                return state.keys
            }
            let list = try keys.map { key in JSONValue.object(try key.jwk().mapValues(JSONValue.string)) }
            return Self.json(["keys": .array(list)])
        }
        router.get("/.well-known/openid-configuration") { _, _ -> Response in
            Self.json(["issuer": .string(self.issuer), "jwks_uri": .string(self.jwksURL)])
        }
        try await Application(router: router).test(.live) { client in
            guard let port = client.port else { throw CancellationError() }
            self.state.withLock { $0.port = port }
            try await body()
        }
    }

    private static func json(_ value: JSONValue) -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/json", .cacheControl: "public, max-age=3600"],
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
