import FlintCore
import FlintServerTestSupport
import FlintTesting
import Foundation
import HTTPTypes
import Testing

@testable import FlintServer

@Suite("Game Center (gc.apple.com): signInWithGameCenter")
struct GameCenterTests {
    @Test("a player signs up a new account, then signs in to it again on either path; the certificate is fetched once")
    func newThenReturning() async throws {
        try await withGameCenter { api, gameCenter in
            let first = try await api.signInWithGameCenter(try gameCenter.credential(teamPlayerID: "T:_team-1", time: api.clock.now()))
            #expect(first.status == .ok, "\(first.text)")
            #expect(first["isNewUser"] == .bool(true) && first.string("idToken") != nil && first.string("refreshToken") != nil)
            #expect(first.string("expiresIn") == "3600" && first.string("displayName") == "Player One")
            #expect(
                first.string("teamPlayerId") == "T:_team-1" && first.string("gamePlayerId") == "A:_game-T:_team-1" && first.string("playerId") == "")
            let second = try await api.signInWithGameCenter(
                try gameCenter.credential(teamPlayerID: "T:_team-1", time: api.clock.now()), path: Path.gameCenter)
            #expect(second.status == .ok, "\(second.text)")
            #expect(second["isNewUser"] == .bool(false) && second.string("localId") == first.string("localId"))
            #expect(gameCenter.fetches == 1)
            let localID = try #require(first.string("localId"))
            let account = try #require(try await api.adminAccount(localID))
            let identity = account["providerUserInfo"]?.arrayValue?.first { $0["providerId"]?.stringValue == "gc.apple.com" }
            #expect(identity?["rawId"]?.stringValue == "T:_team-1" && account["displayName"]?.stringValue == "Player One")
        }
    }

    @Test("the legacy identity signs the playerId, which is then the account's identity")
    func legacyPlayerID() async throws {
        try await withGameCenter { api, gameCenter in
            let reply = try await api.signInWithGameCenter(try gameCenter.credential(teamPlayerID: nil, playerID: "G:1234", time: api.clock.now()))
            #expect(reply.status == .ok && reply.string("playerId") == "G:1234", "\(reply.text)")
            let localID = try #require(reply.string("localId"))
            let account = try #require(try await api.adminAccount(localID))
            #expect(account["providerUserInfo"]?.arrayValue?.first?["rawId"]?.stringValue == "G:1234")
        }
    }

    @Test("linked to a signed-in account, the player then signs in to it; a player of another account cannot be linked")
    func link() async throws {
        try await withGameCenter { api, gameCenter in
            let user = try await api.signUp("ada@example.com")
            let linked = try await api.signInWithGameCenter(
                try gameCenter.credential(teamPlayerID: "T:_ada", time: api.clock.now()), idToken: user.idToken)
            #expect(linked.status == .ok && linked.string("localId") == user.localId && linked["isNewUser"] == .bool(false), "\(linked.text)")
            let again = try await api.signInWithGameCenter(try gameCenter.credential(teamPlayerID: "T:_ada", time: api.clock.now()))
            #expect(again.string("localId") == user.localId, "\(again.text)")
            let other = try await api.signUp("bob@example.com")
            let taken = try await api.signInWithGameCenter(
                try gameCenter.credential(teamPlayerID: "T:_ada", time: api.clock.now()), idToken: other.idToken)
            #expect(taken.errorCode == "FEDERATED_USER_ID_ALREADY_LINKED", "\(taken.text)")
        }
    }

    @Test("a signature for another app or by another key, an old one, a replayed one and another app are refused")
    func refusals() async throws {
        try await withGameCenter { api, gameCenter in
            let now = api.clock.now()
            let otherApp = try await api.signInWithGameCenter(
                try gameCenter.credential(teamPlayerID: "T:_1", bundleID: "com.example.other", time: now))
            #expect(otherApp.errorCode == "INVALID_IDP_RESPONSE" && otherApp.errorMessage?.contains("does not verify") == true)
            let stranger = try StandInIssuer.newKey()
            let forged = try await api.signInWithGameCenter(try gameCenter.credential(teamPlayerID: "T:_1", time: now, signer: stranger))
            #expect(forged.errorCode == "INVALID_IDP_RESPONSE", "\(forged.text)")
            let old = try await api.signInWithGameCenter(try gameCenter.credential(teamPlayerID: "T:_1", time: now - .seconds(301)))
            #expect(old.errorCode == "INVALID_IDP_RESPONSE" && old.errorMessage?.contains("5 minutes") == true, "\(old.text)")
            let unknownApp = try await api.signInWithGameCenter(
                try gameCenter.credential(teamPlayerID: "T:_1", bundleID: "com.example.other", time: now), bundleID: "com.example.other")
            #expect(unknownApp.errorCode == "INVALID_IDP_RESPONSE" && unknownApp.errorMessage?.contains("not one of this project's iOS apps") == true)
            let body = try gameCenter.credential(teamPlayerID: "T:_1", time: now)
            #expect(try await api.signInWithGameCenter(body).status == .ok)
            let replay = try await api.signInWithGameCenter(body)
            #expect(replay.errorCode == "MISSING_OR_INVALID_NONCE", "\(replay.text)")
        }
    }

    @Test("a publicKeyUrl off apple.com is refused before any fetch, even with the stand-in in place")
    func notApple() async throws {
        try await withGameCenter { api, gameCenter in
            for url in [
                "https://evil.example/public-key/gc-prod-10.cer", "http://static.gc.apple.com/public-key/gc-prod-10.cer",
                gameCenter.origin + StandInGameCenter.keyPath,
            ] {
                let reply = try await api.signInWithGameCenter(
                    try gameCenter.credential(teamPlayerID: "T:_1", time: api.clock.now(), publicKeyURL: url))
                #expect(reply.errorCode == "INVALID_IDP_RESPONSE" && reply.errorMessage?.contains("apple.com") == true, "\(reply.text)")
            }
            #expect(gameCenter.fetches == 0)
        }
    }

    @Test("Apple's server down is a clear error at once; Game Center not enabled is OPERATION_NOT_ALLOWED")
    func downAndDisabled() async throws {
        try await withGameCenter { api, gameCenter in
            gameCenter.setDown(true)
            let down = try await api.signInWithGameCenter(try gameCenter.credential(teamPlayerID: "T:_1", time: api.clock.now()))
            #expect(down.errorCode == "INVALID_IDP_RESPONSE" && down.errorMessage?.contains("HTTP 503") == true, "\(down.text)")
            let off = try await api.admin(.patch, "\(Path.defaultIdps)/gc.apple.com?updateMask=enabled", body: #"{"enabled":false}"#)
            #expect(off.status == .ok, "\(off.text)")
            gameCenter.setDown(false)
            let disabled = try await api.signInWithGameCenter(try gameCenter.credential(teamPlayerID: "T:_1", time: api.clock.now()))
            #expect(disabled.errorCode == "OPERATION_NOT_ALLOWED", "\(disabled.text)")
        }
    }
}
