import Crypto
import FlintCore
import FlintServerTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Synchronization
import Testing

@testable import FlintServer

extension Path {
    static let revokeToken = "/identitytoolkit.googleapis.com/v2/accounts:revokeToken"
}

/// A stand-in Sign in with Apple on loopback: its keys (`/auth/keys`, from a ``StandInIssuer`` that signs its ID
/// tokens), its token endpoint (`/auth/token`, exchanging the codes it was told about) and its revocation endpoint
/// (`/auth/revoke`, recording what it revoked). Both check the client secret as Apple does: an ES256 JWT signed by
/// the developer's `.p8` key, with its key ID, the team as `iss`, Apple as `aud`, the client ID as `sub`.
final class AppleStandIn: Sendable {
    /// One revocation Apple was asked for.
    struct Revocation: Sendable, Equatable {
        var token: String
        var hint: String?
        var clientID: String
    }

    private struct State {
        var port = 0
        /// Codes Apple knows: code → (the client ID it was issued to, the Apple ID's `sub`).
        var codes: [String: (clientID: String, sub: String)] = [:]
        var revoked: [Revocation] = []
        /// What was wrong with the client secrets received (none when all were right).
        var secretProblems: [String] = []
        var secretsChecked = 0
        /// Revocations answer `invalid_client` while set.
        var refuseRevocations = false
    }

    /// Signs the stand-in's ID tokens (it does not serve: its key is published at `/auth/keys`).
    let issuer: StandInIssuer
    /// The developer's key, as the `.p8` file holds it.
    let privateKey = P256.Signing.PrivateKey()
    let teamID = "TEAM123456"
    let keyID = "KEY7654321"
    private let state = Mutex(State())

    init() throws {
        issuer = try StandInIssuer()
    }

    /// `http://127.0.0.1:<port>`.
    var origin: String { "http://127.0.0.1:\(state.withLock { $0.port })" }
    /// The `codeFlowConfig` for the apple.com resource.
    var codeFlowConfig: JSONValue {
        ["teamId": .string(teamID), "keyId": .string(keyID), "privateKey": .string(privateKey.pemRepresentation)]
    }
    var revoked: [Revocation] { state.withLock { $0.revoked } }
    var secretProblems: [String] { state.withLock { $0.secretProblems } }
    var secretsChecked: Int { state.withLock { $0.secretsChecked } }

    /// Makes `code` one Apple issued to `clientID` for the Apple ID `sub`.
    func issue(code: String, clientID: String, sub: String) {
        state.withLock { $0.codes[code] = (clientID, sub) }
    }

    func refuseRevocations(_ refuse: Bool) {
        state.withLock { $0.refuseRevocations = refuse }
    }

    /// Runs `body` with the stand-in listening on a loopback port.
    func serve(_ body: @escaping @Sendable () async throws -> Void) async throws {
        let router = Router()
        router.get("/auth/keys") { _, _ -> Response in
            Self.json(["keys": [.object(try self.issuer.key.jwk().mapValues(JSONValue.string))]])
        }
        router.post("/auth/token") { request, _ -> Response in
            let form = Self.form(String(buffer: try await request.body.collect(upTo: 1 << 16)))
            let clientID = form["client_id"] ?? ""
            guard self.secretIsValid(form["client_secret"], clientID: clientID) else {
                return Self.json(["error": "invalid_client"], status: .badRequest)
            }
            guard form["grant_type"] == "authorization_code", let code = form["code"],
                let known = self.state.withLock({ $0.codes[code] }), known.clientID == clientID
            else { return Self.json(["error": "invalid_grant"], status: .badRequest) }
            let now = Int(self.issuer.now.secondsSince1970)
            let idToken = try self.issuer.token([
                "iss": "https://appleid.apple.com", "aud": .string(clientID), "sub": .string(known.sub), "iat": .number(Double(now)),
                "exp": .number(Double(now + 600)),
            ])
            return Self.json([
                "access_token": .string("access-\(code)"), "token_type": "Bearer", "expires_in": .number(3600),
                "refresh_token": .string("refresh-\(code)"), "id_token": .string(idToken),
            ])
        }
        router.post("/auth/revoke") { request, _ -> Response in
            let form = Self.form(String(buffer: try await request.body.collect(upTo: 1 << 16)))
            let clientID = form["client_id"] ?? ""
            guard self.secretIsValid(form["client_secret"], clientID: clientID), !self.state.withLock({ $0.refuseRevocations }) else {
                return Self.json(["error": "invalid_client"], status: .badRequest)
            }
            guard let token = form["token"] else { return Self.json(["error": "invalid_request"], status: .badRequest) }
            self.state.withLock { $0.revoked.append(Revocation(token: token, hint: form["token_type_hint"], clientID: clientID)) }
            return Response(status: .ok)
        }
        try await Application(router: router).test(.live) { client in
            guard let port = client.port else { throw CancellationError() }
            self.state.withLock { $0.port = port }
            try await body()
        }
    }

    /// Checks a client secret as Apple does; a problem is recorded and makes it invalid.
    private func secretIsValid(_ secret: String?, clientID: String) -> Bool {
        var problems: [String] = []
        let parts = (secret ?? "").split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        if parts.count == 3, let headerBytes = Base64URL.decode(parts[0]), let claimBytes = Base64URL.decode(parts[1]),
            let signatureBytes = Base64URL.decode(parts[2]), let header = try? JSONValue(parsing: headerBytes),
            let claims = try? JSONValue(parsing: claimBytes)
        {
            if header["alg"] != "ES256" { problems.append("alg \(header)") }
            if header["kid"]?.stringValue != keyID { problems.append("kid \(header)") }
            let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureBytes)
            if !(signature.map { privateKey.publicKey.isValidSignature($0, for: Array((parts[0] + "." + parts[1]).utf8)) } ?? false) {
                problems.append("signature")
            }
            if claims["iss"]?.stringValue != teamID { problems.append("iss \(claims)") }
            if claims["aud"]?.stringValue != "https://appleid.apple.com" { problems.append("aud \(claims)") }
            if claims["sub"]?.stringValue != clientID { problems.append("sub \(claims) for \(clientID)") }
            let now = Double(self.issuer.now.secondsSince1970)
            if case .number(let iat)? = claims["iat"], case .number(let exp)? = claims["exp"] {
                if !(iat <= now + 60 && exp > now && exp - iat <= 15_777_000) { problems.append("times \(claims)") }
            } else {
                problems.append("no iat/exp \(claims)")
            }
        } else {
            problems.append("not a JWT")
        }
        state.withLock { state in
            state.secretsChecked += 1
            state.secretProblems += problems
        }
        return problems.isEmpty
    }

    /// A form body's fields, percent-decoded.
    private static func form(_ body: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in body.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map {
                String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
            }
            fields[parts[0]] = parts.count == 2 ? parts[1] : ""
        }
        return fields
    }

    private static func json(_ value: JSONValue, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: value.serialized())))
    }
}

/// Runs `body` against a node whose apple.com is the stand-in, configured with the services ID, the app's bundle ID
/// and the stand-in's code-flow key (sealed in the store when the node has a master key).
func withAppleStandIn(masterKey: MasterKey? = nil, _ body: @escaping @Sendable (API, AppleStandIn) async throws -> Void) async throws {
    let apple = try AppleStandIn()
    try await apple.serve {
        try await withFlint(configure: { settings in
            settings.identityProviderStandIns = ["apple.com": apple.origin]
            settings.masterKey = masterKey
        }) { api in
            apple.issuer.follow(api.clock)
            try await api.configureIdp(
                "apple.com",
                [
                    "enabled": true, "clientId": .string(appleServicesID),
                    "appleSignInConfig": ["bundleIds": [.string(appleBundleID)], "codeFlowConfig": apple.codeFlowConfig],
                ])
            try await body(api, apple)
        }
    }
}

extension API {
    /// Signs in with Sign in with Apple as the Apple ID `sub` (the stand-in's ID token): the new account's session.
    func signInWithApple(_ apple: AppleStandIn, sub: String) async throws -> SignedIn {
        let token = try apple.issuer.token(appleClaims(self, sub: sub, email: nil))
        let reply = try await signInWithIdp([("providerId", "apple.com"), ("id_token", token), ("nonce", rawNonce)])
        #expect(reply.status == .ok, "Apple sign-in failed: \(reply.text)")
        return SignedIn(
            idToken: try #require(reply.string("idToken")), refreshToken: try #require(reply.string("refreshToken")),
            localId: try #require(reply.string("localId")), reply: reply)
    }

    /// `accounts:revokeToken` with `fields`.
    func revokeToken(_ fields: [String: JSONValue]) async throws -> Reply {
        try await postRaw(Path.revokeToken, String(decoding: JSONValue.object(fields).serialized(), as: UTF8.self))
    }
}
