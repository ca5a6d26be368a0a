import FlintCore
import FlintServerTestSupport
import Foundation
import Hummingbird
import Synchronization
import Testing

@testable import FlintServer

/// Google Play Games on loopback: Google's token endpoint taking server auth codes (once each, for the web client's
/// ID and secret and an empty `redirect_uri`; `invalid_grant` / `invalid_client` otherwise) and `games/v1/players/me`
/// (401 `UNAUTHENTICATED` for an unknown token), as oauth2.googleapis.com and games.googleapis.com answer.
final class StandInPlayGames: Sendable {
    static let clientID = "5678-games.apps.googleusercontent.com"
    static let clientSecret = "pg-client-secret"

    private struct State {
        var port = 0
        /// Server auth code → the player it signs in.
        var codes: [String: [String: JSONValue]] = [:]
        var accessTokens: [String: [String: JSONValue]] = [:]
        var tokenForms: [[String: String]] = []
    }

    private let state = Mutex(State())

    /// `http://127.0.0.1:<port>`.
    var origin: String { "http://127.0.0.1:\(state.withLock { $0.port })" }

    /// A `players/me` answer.
    static func player(id: String = "g07123456789012345678", name: String = "Pixel Knight") -> [String: JSONValue] {
        [
            "kind": "games#player", "playerId": .string(id), "displayName": .string(name),
            "avatarImageUrl": "https://lh3.googleusercontent.example/avatar", "bannerUrlPortrait": "https://lh3.googleusercontent.example/banner",
            "title": "Novice", "friendStatus": "NO_RELATIONSHIP",
        ]
    }

    /// A server auth code the game got from Play Games for `player`.
    func serverAuthCode(for player: [String: JSONValue]) -> String {
        let code = "4/0A\(UUID().uuidString.prefix(12))"
        state.withLock { $0.codes[code] = player }
        return code
    }

    /// The token endpoint's forms so far.
    var tokenForms: [[String: String]] { state.withLock { $0.tokenForms } }

    /// Runs `body` with Google's two hosts listening on a loopback port.
    func serve(_ body: @escaping @Sendable () async throws -> Void) async throws {
        let router = Router()
        router.post("/token") { request, _ in self.exchange(try await LoopbackProvider.form(request)) }
        router.get("/games/v1/players/me") { request, _ in
            guard let bearer = LoopbackProvider.bearer(request), let player = self.state.withLock({ $0.accessTokens[bearer] }) else {
                return LoopbackProvider.json(
                    [
                        "error": [
                            "code": .number(401), "status": "UNAUTHENTICATED",
                            "message": "Request had invalid authentication credentials. Expected OAuth 2 access token.",
                        ]
                    ], status: .unauthorized)
            }
            return LoopbackProvider.json(.object(player))
        }
        try await LoopbackProvider.serve(router, listening: { port in self.state.withLock { $0.port = port } }, body)
    }

    private func exchange(_ form: [String: String]) -> Response {
        state.withLock { $0.tokenForms.append(form) }
        guard form["client_id"] == Self.clientID, form["client_secret"] == Self.clientSecret else {
            return LoopbackProvider.json(["error": "invalid_client", "error_description": "Unauthorized"], status: .unauthorized)
        }
        let player = state.withLock { $0.codes.removeValue(forKey: form["code"] ?? "") }
        guard form["grant_type"] == "authorization_code", form["redirect_uri"] == "", let player else {
            return LoopbackProvider.json(["error": "invalid_grant", "error_description": "Bad Request"], status: .badRequest)
        }
        let accessToken = "ya29.\(UUID().uuidString.prefix(12))"
        state.withLock { $0.accessTokens[accessToken] = player }
        return LoopbackProvider.json([
            "access_token": .string(accessToken), "expires_in": .number(3599), "scope": "https://www.googleapis.com/auth/games_lite",
            "token_type": "Bearer",
        ])
    }
}
