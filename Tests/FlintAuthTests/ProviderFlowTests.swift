import FlintAuthTestSupport
import FlintCore
import FlintTesting
import Foundation
import Testing

@testable import FlintAuth

/// Facebook, GitHub and X sign-in through the SDK's credentials against `flint serve`, whose provider addresses point
/// at one stand-in on loopback (`--idp-stand-in`, dev mode only) answering as Graph API, GitHub's API and X's API do.
@Suite("Facebook, GitHub and X sign-in against flint serve")
struct ProviderFlowTests {
    /// The stand-in: each provider's paths, for the one user it knows per provider.
    static func standIn() throws -> ScriptedHTTPServer {
        try ScriptedHTTPServer { request in
            let path = String(request.target.prefix { $0 != "?" })
            func json(_ value: JSONValue) -> ScriptedHTTPServer.Reply {
                ScriptedHTTPServer.Reply(
                    status: 200, headers: ["Content-Type": "application/json"], body: String(decoding: value.serialized(), as: UTF8.self))
            }
            switch path {
            case "/v19.0/debug_token":
                guard request.target.contains("input_token=EAAB-good") else { return json(["data": ["is_valid": false]]) }
                return json(["data": ["is_valid": true, "app_id": "fb-app", "user_id": "10001"]])
            case "/v19.0/me": return json(["id": "10001", "name": "Face Person", "email": "face@example.com"])
            case "/applications/gh-client/token": return json(["id": .number(1), "token": "gho_good"])
            case "/user": return json(["id": .number(4242), "login": "octo", "name": "Octo Cat", "avatar_url": "https://avatars.example/4242"])
            case "/user/emails": return json([["email": "octo@example.com", "primary": true, "verified": true]])
            case "/1.1/account/verify_credentials.json":
                return json(["id_str": "777", "screen_name": "tweety", "name": "Tweety Bird", "email": "tweety@example.com"])
            default: return ScriptedHTTPServer.Reply(status: 404, body: "{}")
            }
        }
    }

    @Test("each credential signs up, then signs the same account in again; a bad token is refused")
    func credentials() async throws {
        let standIn = try Self.standIn()
        defer { standIn.stop() }
        let origin = "http://127.0.0.1:\(standIn.port)"
        let standIns = ["facebook.com", "github.com", "twitter.com"].flatMap { ["--idp-stand-in", "\($0)=\(origin)"] }
        try await withFlint(extraArguments: standIns) { server in
            try await OAuthFlowTests.enable("facebook.com", clientID: "fb-app", secret: "fb-secret", on: server)
            try await OAuthFlowTests.enable("github.com", clientID: "gh-client", secret: "gh-secret", on: server)
            try await OAuthFlowTests.enable("twitter.com", clientID: "x-key", secret: "x-secret", on: server)
            let auth = server.makeAuth()
            let cases: [(AuthCredential, String, String?)] = [
                (FacebookAuthProvider.credential(withAccessToken: "EAAB-good"), "facebook.com", nil),
                (GitHubAuthProvider.credential(withToken: "gho_good"), "github.com", "octo"),
                (TwitterAuthProvider.credential(withToken: "x-token", secret: "x-token-secret"), "twitter.com", "tweety"),
            ]
            for (credential, provider, username) in cases {
                let first = try await auth.signIn(with: credential)
                #expect(first.additionalUserInfo?.providerID == provider && first.additionalUserInfo?.isNewUser == true)
                #expect(first.additionalUserInfo?.username == username)
                #expect(first.user.providerData.contains { $0.providerID == provider })
                let uid = first.user.uid
                try auth.signOut()
                let again = try await auth.signIn(with: credential)
                #expect(again.user.uid == uid && again.additionalUserInfo?.isNewUser == false, "\(provider)")
                try auth.signOut()
            }
            await expectAuthError(.invalidCredential, "another app's Facebook token signed in") {
                try await auth.signIn(with: FacebookAuthProvider.credential(withAccessToken: "EAAB-other"))
            }
        }
    }
}
