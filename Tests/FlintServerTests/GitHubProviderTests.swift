import FlintCore
import FlintServerTestSupport
import FlintTesting
import Foundation
import HTTPTypes
import Testing

@testable import FlintServer

/// Runs `body` against a node with github.com configured (the stand-in's OAuth app) and served by the stand-in, or by
/// `origin` when given.
func withGitHub(origin: String? = nil, _ body: @escaping @Sendable (API, StandInGitHub) async throws -> Void) async throws {
    try await withStandIn(
        StandInGitHub(), providerID: "github.com", clientID: StandInGitHub.clientID, secret: StandInGitHub.clientSecret, origin: origin, body)
}

@Suite("github.com: access tokens and codes of the configured OAuth app, the profile and verified primary email")
struct GitHubProviderTests {
    @Test("an access token makes a new account, then signs in to it; login is the screenName, /user the rawUserInfo")
    func newThenReturning() async throws {
        try await withGitHub { api, github in
            github.issue("gho_octo", .init(user: StandInGitHub.user()))
            let first = try await api.signInWithIdp([("providerId", "github.com"), ("access_token", "gho_octo")])
            #expect(first.status == .ok, "\(first.text)")
            #expect(first["isNewUser"] == .bool(true) && first.string("federatedId") == "583231")
            #expect(first.string("screenName") == "octocat" && first.string("displayName") == "The Octocat")
            #expect(first.string("email") == "octo@example.com" && first["emailVerified"] == .bool(false))
            #expect(first.string("photoUrl") == "https://avatars.example/u/583231" && first.string("oauthAccessToken") == "gho_octo")
            let raw = try JSONValue(parsing: Array(try #require(first.string("rawUserInfo")).utf8))
            #expect(raw["login"]?.stringValue == "octocat" && raw["node_id"] != nil)
            // Every API call named Flint (GitHub refuses calls without a User-Agent).
            #expect(!github.userAgents.isEmpty && github.userAgents.allSatisfy { $0 == "Flint" })
            let again = try await api.signInWithIdp([("providerId", "github.com"), ("access_token", "gho_octo")], returnIdpCredential: false)
            #expect(again["isNewUser"] == .bool(false) && again.string("localId") == first.string("localId"), "\(again.text)")
            #expect(again.string("oauthAccessToken") == nil)
        }
    }

    @Test("an app's own web flow sends the code: redeemed with the app's secret and the requestUri as redirect_uri, once")
    func code() async throws {
        try await withGitHub { api, github in
            let code = github.issueCode(redirectURI: "http://localhost")
            let reply = try await api.signInWithIdp([("providerId", "github.com"), ("code", code)])
            #expect(reply.status == .ok, "\(reply.text)")
            #expect(reply.string("screenName") == "octocat" && reply.string("oauthAccessToken")?.hasPrefix("gho_") == true)
            let again = try await api.signInWithIdp([("providerId", "github.com"), ("code", code)])
            #expect(again.errorCode == "INVALID_IDP_RESPONSE" && again.errorMessage?.contains("bad_verification_code") == true, "\(again.text)")
        }
    }

    @Test("a signed-in account links GitHub; an existing account's email from GitHub answers needConfirmation")
    func linkAndConfirm() async throws {
        try await withGitHub { api, github in
            github.issue("gho_octo", .init(user: StandInGitHub.user()))
            let user = try await api.signUp("someone@example.com")
            let linked = try await api.signInWithIdp([("providerId", "github.com"), ("access_token", "gho_octo")], idToken: user.idToken)
            #expect(linked.status == .ok && linked.string("localId") == user.localId, "\(linked.text)")
            #expect(try await api.lookupFederated("github.com", "583231") == [user.localId])
            let owner = try await api.signUp("mona@example.com")
            github.issue(
                "gho_mona", .init(user: StandInGitHub.user(id: 99, login: "mona"), emails: [StandInGitHub.email("mona@example.com", primary: true)]))
            let reply = try await api.signInWithIdp([("providerId", "github.com"), ("access_token", "gho_mona")])
            #expect(reply["needConfirmation"] == .bool(true) && reply.string("localId") == owner.localId, "\(reply.text)")
            #expect(reply.string("idToken") == nil)
        }
    }

    @Test("the email: the primary address only when GitHub verified it; without the user:email scope, the public one")
    func emails() async throws {
        try await withGitHub { api, github in
            github.issue(
                "gho_unverified",
                .init(
                    user: StandInGitHub.user(id: 1, login: "a"),
                    emails: [StandInGitHub.email("a@example.com", primary: true, verified: false), StandInGitHub.email("a2@example.com")]))
            let unverified = try await api.signInWithIdp([("providerId", "github.com"), ("access_token", "gho_unverified")])
            #expect(unverified.status == .ok && unverified.string("email") == nil, "\(unverified.text)")
            github.issue("gho_public", .init(user: StandInGitHub.user(id: 2, login: "b", publicEmail: "b@example.com"), emails: nil))
            let scopeless = try await api.signInWithIdp([("providerId", "github.com"), ("access_token", "gho_public")])
            #expect(scopeless.status == .ok && scopeless.string("email") == "b@example.com", "\(scopeless.text)")
        }
    }

    @Test("another app's token, a revoked one, an unknown code: INVALID_IDP_RESPONSE; no credential: INVALID_CREDENTIAL_OR_PROVIDER_ID")
    func refusals() async throws {
        try await withGitHub { api, github in
            github.issue("gho_other", .init(clientID: "Iv1.otherapp", user: StandInGitHub.user()))
            let other = try await api.signInWithIdp([("providerId", "github.com"), ("access_token", "gho_other")])
            #expect(other.errorCode == "INVALID_IDP_RESPONSE" && other.errorMessage?.contains("another app") == true, "\(other.text)")
            github.issue("gho_gone", .init(user: StandInGitHub.user()))
            github.revoke("gho_gone")
            let revoked = try await api.signInWithIdp([("providerId", "github.com"), ("access_token", "gho_gone")])
            #expect(revoked.errorCode == "INVALID_IDP_RESPONSE", "\(revoked.text)")
            let code = try await api.signInWithIdp([("providerId", "github.com"), ("code", "never-issued")])
            #expect(code.errorCode == "INVALID_IDP_RESPONSE" && code.errorMessage?.contains("bad_verification_code") == true, "\(code.text)")
            let empty = try await api.signInWithIdp([("providerId", "github.com")])
            #expect(empty.errorCode == "INVALID_CREDENTIAL_OR_PROVIDER_ID", "\(empty.text)")
        }
    }

    @Test("GitHub down: a clear INVALID_IDP_RESPONSE within the provider call's bound, never a hang")
    func down() async throws {
        try await withGitHub(origin: LoopbackProvider.closedOrigin) { api, _ in
            let started = ContinuousClock.now
            let reply = try await api.signInWithIdp([("providerId", "github.com"), ("access_token", "gho_octo")])
            #expect(reply.errorCode == "INVALID_IDP_RESPONSE" && reply.errorMessage?.contains("could not be reached") == true, "\(reply.text)")
            #expect(ContinuousClock.now - started < LoopbackProvider.downBound)
        }
    }

    @Test("the hosted handler: GitHub's authorize page with the user:email scope, then the code redeemed")
    func webFlow() async throws {
        try await withGitHub { api, github in
            try await api.allowApp()
            let start = try await api.handler(API.redirectQuery("github.com", sessionID: "gh-session", ["scopes": "read:org"]))
            let location = try #require(start.headers[.location])
            #expect(location.hasPrefix(github.origin + "/login/oauth/authorize?"), "\(location)")
            #expect(queryItems(of: location)["scope"] == "user:email read:org")
            let callback = try RedirectCallback(try await api.redirectSignIn("github.com", sessionID: "gh-session"))
            let reply = try await api.completeRedirect(link: callback.link, sessionID: "gh-session", providerID: "github.com")
            #expect(reply.status == .ok, "\(reply.text)")
            #expect(reply["isNewUser"] == .bool(true) && reply.string("screenName") == "octocat")
        }
    }
}
