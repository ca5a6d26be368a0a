import FlintCore
import FlintServerTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Synchronization
import Testing

@testable import FlintServer

extension Path {
    static let gameCenter = "\(v1)/accounts:signInWithGameCenter"
    static let gameCenterV3 = "\(v3)/signInWithGameCenter"
}

/// A stand-in for Apple's Game Center on loopback: it publishes its certificate (DER) at Apple's path, counting the
/// fetches, and signs identities as GameKit's `fetchItems(forIdentityVerificationSignature:)` gives them to an app.
final class StandInGameCenter: Sendable {
    /// The path of the certificate, and Apple's address for it that apps send as `publicKeyUrl`.
    static let keyPath = "/public-key/gc-prod-10.cer"
    static let publicKeyURL = "https://static.gc.apple.com" + keyPath

    private struct State {
        var port = 0
        var fetches = 0
        /// Whether Apple's server answers `503`.
        var down = false
    }

    private let state = Mutex(State())
    let key: SigningKey

    init() throws {
        key = try SigningKey.generate(now: Instant(Date()), random: SystemRandom())
    }

    /// `http://127.0.0.1:<port>`.
    var origin: String { "http://127.0.0.1:\(state.withLock { $0.port })" }
    /// How many times the certificate was fetched.
    var fetches: Int { state.withLock { $0.fetches } }

    /// Makes the server answer `503`, or serve again.
    func setDown(_ down: Bool) {
        state.withLock { $0.down = down }
    }

    /// The body of `signInWithGameCenter` as FirebaseAuth sends it for `fetchItems`' identity (an empty `playerId`), signed
    /// by `signer` (this server's key unless told) over `teamPlayerID` (or the legacy `playerID` when `teamPlayerID` is
    /// `nil`), `bundleID` and `time`.
    func credential(
        teamPlayerID: String?, playerID: String = "", bundleID: String = appleBundleID, time: Instant, signer: SigningKey? = nil,
        publicKeyURL: String = publicKeyURL
    ) throws -> [String: JSONValue] {
        let salt = SystemRandom().bytes(8)
        let identity = GameCenterIdentity(playerID: teamPlayerID ?? playerID, timestamp: time, salt: salt, signature: [])
        let signature = try (signer ?? key).sign(identity.signedData(bundleID: bundleID))
        var body: [String: JSONValue] = [
            "playerId": .string(playerID), "publicKeyUrl": .string(publicKeyURL), "signature": .string(Base64URL.encode(signature)),
            "salt": .string(Base64URL.encode(salt)), "timestamp": .number(Double(time.millisecondsSince1970)), "displayName": "Player One",
        ]
        if let teamPlayerID {
            body["teamPlayerId"] = .string(teamPlayerID)
            body["gamePlayerId"] = .string("A:_game-\(teamPlayerID)")
        }
        return body
    }

    /// Runs `body` with the server listening on a loopback port.
    func serve(_ body: @escaping @Sendable () async throws -> Void) async throws {
        let router = Router()
        let pem = key.certificatePEM.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        let der = Array(try #require(Data(base64Encoded: pem)))
        router.get(RouterPath(Self.keyPath)) { _, _ -> Response in
            let down = self.state.withLock { state -> Bool in
                state.fetches += 1
                return state.down
            }
            guard !down else { return Response(status: .serviceUnavailable) }
            return Response(status: .ok, headers: [.contentType: "application/pkix-cert"], body: .init(byteBuffer: ByteBuffer(bytes: der)))
        }
        try await Application(router: router).test(.live) { client in
            guard let port = client.port else { throw CancellationError() }
            self.state.withLock { $0.port = port }
            try await body()
        }
    }
}

extension API {
    /// `signInWithGameCenter` (the v3 path FirebaseAuth uses unless told) from the app `bundleID`.
    func signInWithGameCenter(
        _ body: [String: JSONValue], idToken: String? = nil, bundleID: String? = appleBundleID, path: String = Path.gameCenterV3
    ) async throws -> Reply {
        var body = body
        if let idToken { body["idToken"] = .string(idToken) }
        var headers: HTTPFields = [:]
        if let bundleID, let name = HTTPField.Name("X-Ios-Bundle-Identifier") { headers[name] = bundleID }
        return try await postRaw(path, String(decoding: JSONValue.object(body).serialized(), as: UTF8.self), headers: headers)
    }
}

/// Runs `body` against a node whose Game Center certificates come from a stand-in on loopback, with `gc.apple.com`
/// enabled and ``appleBundleID`` one of the project's apps.
func withGameCenter(_ body: @escaping @Sendable (API, StandInGameCenter) async throws -> Void) async throws {
    let gameCenter = try StandInGameCenter()
    try await gameCenter.serve {
        try await withFlint(configure: { $0.identityProviderStandIns = ["gc.apple.com": gameCenter.origin] }) { api in
            try await api.configureIdp("gc.apple.com", ["enabled": true])
            try await api.allowApp()
            try await body(api, gameCenter)
        }
    }
}
