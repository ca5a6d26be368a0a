import FlintCore
import FlintServerTestSupport
import FlintTesting
import Foundation
import HTTPTypes
import Testing

@testable import FlintServer

/// Runs `body` against a node with playgames.google.com configured (the stand-in's web client, or `secret`) and served
/// by the stand-in, or by `origin` when given.
func withPlayGames(
    origin: String? = nil, secret: String = StandInPlayGames.clientSecret, _ body: @escaping @Sendable (API, StandInPlayGames) async throws -> Void
) async throws {
    try await withStandIn(
        StandInPlayGames(), providerID: "playgames.google.com", clientID: StandInPlayGames.clientID, secret: secret, origin: origin, body)
}

@Suite("playgames.google.com: the server auth code exchanged, the player from games/v1/players/me")
struct PlayGamesProviderTests {
    static let player = "g07123456789012345678"

    @Test("a server auth code makes a new account, a new code signs in to it; the player is the profile, no email")
    func newThenReturning() async throws {
        try await withPlayGames { api, games in
            let first = try await api.signInWithIdp([
                ("providerId", "playgames.google.com"), ("code", games.serverAuthCode(for: StandInPlayGames.player())),
            ])
            #expect(first.status == .ok, "\(first.text)")
            #expect(first["isNewUser"] == .bool(true) && first.string("federatedId") == Self.player)
            #expect(first.string("displayName") == "Pixel Knight" && first.string("photoUrl") == "https://lh3.googleusercontent.example/avatar")
            #expect(first.string("email") == nil && first.string("oauthAccessToken")?.hasPrefix("ya29.") == true)
            let raw = try JSONValue(parsing: Array(try #require(first.string("rawUserInfo")).utf8))
            #expect(raw["playerId"]?.stringValue == Self.player && raw["kind"]?.stringValue == "games#player")
            // Exchanged as Google takes a server auth code: the web client's ID and secret, an empty redirect_uri.
            let form = try #require(games.tokenForms.last)
            #expect(form["redirect_uri"] == "" && form["client_id"] == StandInPlayGames.clientID && form["grant_type"] == "authorization_code")
            let again = try await api.signInWithIdp(
                [("providerId", "playgames.google.com"), ("code", games.serverAuthCode(for: StandInPlayGames.player()))], returnIdpCredential: false)
            #expect(again["isNewUser"] == .bool(false) && again.string("localId") == first.string("localId"), "\(again.text)")
            #expect(again.string("oauthAccessToken") == nil)
        }
    }

    @Test("a signed-in account links Play Games")
    func link() async throws {
        try await withPlayGames { api, games in
            let user = try await api.signUp("gamer@example.com")
            let linked = try await api.signInWithIdp(
                [("providerId", "playgames.google.com"), ("code", games.serverAuthCode(for: StandInPlayGames.player()))], idToken: user.idToken)
            #expect(linked.status == .ok && linked.string("localId") == user.localId, "\(linked.text)")
            #expect(try await api.lookupFederated("playgames.google.com", Self.player) == [user.localId])
        }
    }

    @Test("a spent or unknown code and a wrong client secret: INVALID_IDP_RESPONSE naming Google's error; no code, no web flow")
    func refusals() async throws {
        try await withPlayGames { api, games in
            let code = games.serverAuthCode(for: StandInPlayGames.player())
            _ = try await api.signInWithIdp([("providerId", "playgames.google.com"), ("code", code)])
            let spent = try await api.signInWithIdp([("providerId", "playgames.google.com"), ("code", code)])
            #expect(spent.errorCode == "INVALID_IDP_RESPONSE" && spent.errorMessage?.contains("invalid_grant") == true, "\(spent.text)")
            let empty = try await api.signInWithIdp([("providerId", "playgames.google.com")])
            #expect(empty.errorCode == "INVALID_CREDENTIAL_OR_PROVIDER_ID", "\(empty.text)")
            try await api.allowApp()
            let page = try await api.handler(API.redirectQuery("playgames.google.com", sessionID: "s"))
            #expect(page.status == .badRequest && page.text.contains("no web sign-in"), "\(page.text)")
        }
        try await withPlayGames(secret: "wrong") { api, games in
            let reply = try await api.signInWithIdp([
                ("providerId", "playgames.google.com"), ("code", games.serverAuthCode(for: StandInPlayGames.player())),
            ])
            #expect(reply.errorCode == "INVALID_IDP_RESPONSE" && reply.errorMessage?.contains("invalid_client") == true, "\(reply.text)")
        }
    }

    @Test("Google down: a clear INVALID_IDP_RESPONSE within the provider call's bound, never a hang")
    func down() async throws {
        try await withPlayGames(origin: LoopbackProvider.closedOrigin) { api, _ in
            let started = ContinuousClock.now
            let reply = try await api.signInWithIdp([("providerId", "playgames.google.com"), ("code", "4/0Acode")])
            #expect(reply.errorCode == "INVALID_IDP_RESPONSE" && reply.errorMessage?.contains("could not be reached") == true, "\(reply.text)")
            #expect(ContinuousClock.now - started < LoopbackProvider.downBound)
        }
    }
}
