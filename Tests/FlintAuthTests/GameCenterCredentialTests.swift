import FlintAuthTestSupport
import Foundation
import Testing

@testable import FlintAuth

/// Game Center credentials against a scripted server: the `signInWithGameCenter` body FirebaseAuth writes, for a
/// sign-in, a link and a re-authentication, and how the answers are read.
@Suite("Game Center credentials")
struct GameCenterCredentialTests {
    /// A verification whose signature and salt hold the bytes base64 writes as `+`, `/` and `=`.
    static func credential(timestamp: UInt64 = 1_718_000_000_123) throws -> AuthCredential {
        GameCenterAuthProvider.credential(
            teamPlayerID: "T:_a1b2", gamePlayerID: "G:_c3d4",
            publicKeyURL: try #require(URL(string: "https://static.gc.apple.com/public-key/gc-prod-10.cer")),
            signature: Data([0xFB, 0xFF, 0xFE]), salt: Data([0x01, 0x02]), timestamp: timestamp, displayName: "Ada")
    }

    static func answer(uid: String, isNewUser: Bool) -> ScriptedHTTPServer.Answer {
        .status(
            200,
            #"{"localId":"\#(uid)","idToken":"gc.id.token","refreshToken":"refresh-gc","expiresIn":"3600","playerId":"","teamPlayerId":"T:_a1b2","gamePlayerId":"G:_c3d4","displayName":"Ada","isNewUser":\#(isNewUser)}"#
        )
    }

    @Test("sign-in posts signInWithGameCenter with base64url signature and salt and Auth.tenantID, and reads the tenant's new player")
    func signIn() async throws {
        let server = try ScriptedHTTPServer(script: [Self.answer(uid: "uid-gc", isNewUser: true), ProviderCredentialTests.lookup(uid: "uid-gc")])
        defer { server.stop() }
        let auth = try OAuthOfflineTests.auth(port: server.port)
        auth.tenantID = "tenant-1"
        let result = try await auth.signIn(with: try Self.credential())

        #expect(server.requestLines.first?.hasPrefix("POST /identitytoolkit.googleapis.com/v1/accounts:signInWithGameCenter?key=k ") == true)
        let body = try ProviderCredentialTests.body(server, 0)
        #expect(
            Set(body.keys) == [
                "playerId", "teamPlayerId", "gamePlayerId", "publicKeyUrl", "signature", "salt", "timestamp", "displayName", "tenantId",
            ])
        #expect(body["tenantId"] as? String == "tenant-1", "the tenant's player, as Identity Platform's request names it")
        #expect(body["playerId"] as? String == "" && body["teamPlayerId"] as? String == "T:_a1b2" && body["gamePlayerId"] as? String == "G:_c3d4")
        #expect(body["publicKeyUrl"] as? String == "https://static.gc.apple.com/public-key/gc-prod-10.cer")
        #expect(body["signature"] as? String == "-__-" && body["salt"] as? String == "AQI")
        #expect((body["timestamp"] as? NSNumber)?.uint64Value == 1_718_000_000_123 && body["displayName"] as? String == "Ada")

        #expect(result.user.uid == "uid-gc" && auth.currentUser === result.user && result.user.tenantID == "tenant-1")
        let info = try #require(result.additionalUserInfo)
        #expect(info.providerID == "gc.apple.com" && info.isNewUser && info.profile == nil && info.username == nil)
        #expect(result.credential == nil)
    }

    @Test("link sends the user's ID token and answers no provider details; re-authentication sends none")
    func linkAndReauthenticate() async throws {
        let server = try ScriptedHTTPServer(script: [
            .status(200, #"{"idToken":"anon.id.token","refreshToken":"refresh-anon","expiresIn":"3600","localId":"uid-anon"}"#),
            ProviderCredentialTests.lookup(uid: "uid-anon"),
            Self.answer(uid: "uid-anon", isNewUser: false), ProviderCredentialTests.lookup(uid: "uid-anon", providers: ["gc.apple.com"]),
            Self.answer(uid: "uid-anon", isNewUser: false), ProviderCredentialTests.lookup(uid: "uid-anon", providers: ["gc.apple.com"]),
            Self.answer(uid: "uid-someone-else", isNewUser: false),
        ])
        defer { server.stop() }
        let auth = try OAuthOfflineTests.auth(port: server.port)
        let user = try await auth.signInAnonymously().user
        #expect(user.anonymous() && user.isAnonymous && !user.emailVerified())

        let linked = try await user.link(with: try Self.credential(timestamp: 0))
        let link = try ProviderCredentialTests.body(server, 2)
        #expect(server.requestLines[2].contains("/v1/accounts:signInWithGameCenter"))
        #expect(link["idToken"] as? String == "anon.id.token" && link["timestamp"] == nil, "a zero timestamp is left out")
        #expect(linked.user === user && linked.additionalUserInfo == nil && linked.credential == nil)
        #expect(user.providerData.map(\.providerID) == ["gc.apple.com"] && !user.anonymous())
        await expectAuthError(.providerAlreadyLinked, "linked Game Center twice") { try await user.link(with: try Self.credential()) }

        let again = try await user.reauthenticate(with: try Self.credential())
        #expect(try ProviderCredentialTests.body(server, 4)["idToken"] == nil)
        #expect(again.additionalUserInfo?.providerID == "gc.apple.com" && again.additionalUserInfo?.isNewUser == false)
        await expectAuthError(.userMismatch, "re-authenticated as another player") { try await user.reauthenticate(with: try Self.credential()) }
    }

    #if !canImport(GameKit)
        @Test("without GameKit, getCredential is gameKitNotLinked, in both forms")
        func withoutGameKit() async throws {
            await expectAuthError(.gameKitNotLinked, "a credential without GameKit") { try await GameCenterAuthProvider.getCredential() }
            let error: (any Error)? = await withCheckedContinuation { continuation in
                GameCenterAuthProvider.getCredential { credential, error in
                    #expect(credential == nil)
                    continuation.resume(returning: error)
                }
            }
            #expect(error.flatMap(authCode) == AuthErrorCode.gameKitNotLinked.rawValue)
        }
    #endif
}
