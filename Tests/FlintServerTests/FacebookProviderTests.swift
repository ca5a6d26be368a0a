import FlintCore
import FlintServerTestSupport
import FlintTesting
import Foundation
import HTTPTypes
import Testing

@testable import FlintServer

/// Runs `body` against a node with facebook.com configured (the stand-in's app ID and secret, or `secret`) and served by
/// the stand-in, or by `origin` when given.
func withFacebook(
    origin: String? = nil, secret: String = StandInFacebook.appSecret, _ body: @escaping @Sendable (API, StandInFacebook) async throws -> Void
) async throws {
    try await withStandIn(
        try StandInFacebook(), providerID: "facebook.com", clientID: StandInFacebook.appID, secret: secret, origin: origin, body)
}

@Suite("facebook.com: access tokens checked with debug_token, Limited Login ID tokens, the hosted handler's web flow")
struct FacebookProviderTests {
    static let zoe = "10158000000000001"

    @Test("an access token makes a new account, then signs in to it; the answer is Facebook's profile as Firebase gives it")
    func newThenReturning() async throws {
        try await withFacebook { api, facebook in
            facebook.issue("EAAG-zoe", .init(user: StandInFacebook.user()))
            let first = try await api.signInWithIdp([("providerId", "facebook.com"), ("access_token", "EAAG-zoe")])
            #expect(first.status == .ok, "\(first.text)")
            #expect(first["isNewUser"] == .bool(true) && first.string("idToken") != nil)
            #expect(first.string("federatedId") == "http://facebook.com/\(Self.zoe)" && first.string("providerId") == "facebook.com")
            // Facebook's email is not taken as verified, as Firebase takes it.
            #expect(first.string("email") == "zoe@example.com" && first["emailVerified"] == .bool(false))
            #expect(first.string("displayName") == "Zoe Park" && first.string("firstName") == "Zoe" && first.string("lastName") == "Park")
            #expect(first.string("photoUrl") == "https://graph.facebook.com/\(Self.zoe)/picture")
            #expect(first.string("oauthAccessToken") == "EAAG-zoe" && first.string("oauthIdToken") == nil)
            let raw = try JSONValue(parsing: Array(try #require(first.string("rawUserInfo")).utf8))
            #expect(raw["id"]?.stringValue == Self.zoe && raw["picture"]?["data"]?["url"] != nil)
            // /me was asked for the profile's fields, with the app secret proof (the stand-in refuses a wrong one).
            let me = try #require(facebook.meQueries.last)
            #expect(me["fields"] == "id,name,email,first_name,last_name,picture" && me["appsecret_proof"]?.count == 64)
            let again = try await api.signInWithIdp([("providerId", "facebook.com"), ("access_token", "EAAG-zoe")], returnIdpCredential: false)
            #expect(again.status == .ok, "\(again.text)")
            #expect(again["isNewUser"] == .bool(false) && again.string("localId") == first.string("localId"))
            #expect(again.string("oauthAccessToken") == nil)
            #expect(try await api.lookupFederated("facebook.com", Self.zoe) == [try #require(first.string("localId"))])
        }
    }

    @Test("a signed-in account links Facebook (v3 verifyAssertion too)")
    func link() async throws {
        try await withFacebook { api, facebook in
            facebook.issue("EAAG-zoe", .init(user: StandInFacebook.user()))
            let user = try await api.signUp("someone@example.com")
            let linked = try await api.signInWithIdp(
                [("providerId", "facebook.com"), ("access_token", "EAAG-zoe")], idToken: user.idToken, path: Path.verifyAssertion)
            #expect(linked.status == .ok, "\(linked.text)")
            #expect(linked.string("localId") == user.localId)
            #expect(try await api.lookupFederated("facebook.com", Self.zoe) == [user.localId])
        }
    }

    @Test("an existing account's email from Facebook answers needConfirmation, without tokens")
    func needConfirmation() async throws {
        try await withFacebook { api, facebook in
            let owner = try await api.signUp("zoe@example.com")
            facebook.issue("EAAG-zoe", .init(user: StandInFacebook.user()))
            let reply = try await api.signInWithIdp([("providerId", "facebook.com"), ("access_token", "EAAG-zoe")])
            #expect(reply.status == .ok, "\(reply.text)")
            #expect(reply["needConfirmation"] == .bool(true) && reply.string("localId") == owner.localId)
            #expect(reply.string("idToken") == nil && reply.string("pendingToken") != nil)
            #expect(try await api.lookupFederated("facebook.com", Self.zoe).isEmpty)
        }
    }

    @Test(
        "Facebook's refusals answer INVALID_IDP_RESPONSE with the reason",
        arguments: [
            (
                "expired", StandInFacebook.Token(user: StandInFacebook.user(), invalidBecause: "Error validating access token: Session has expired"),
                "Session has expired"
            ),
            ("other-app", StandInFacebook.Token(appID: "999999", user: StandInFacebook.user()), "another app"),
            (
                "revoked", StandInFacebook.Token(user: StandInFacebook.user(), invalidBecause: "The user has not authorized application 4242424242."),
                "not authorized"
            ),
            ("unknown", nil, "Invalid OAuth access token"),
        ])
    func refusals(_ name: String, _ token: StandInFacebook.Token?, _ words: String) async throws {
        try await withFacebook { api, facebook in
            if let token { facebook.issue("EAAG-\(name)", token) }
            let reply = try await api.signInWithIdp([("providerId", "facebook.com"), ("access_token", "EAAG-\(name)")])
            #expect(reply.errorCode == "INVALID_IDP_RESPONSE", "\(reply.text)")
            #expect(reply.errorMessage?.contains(words) == true, "\(reply.text)")
        }
    }

    @Test("a wrong app secret in the config: Facebook refuses the app token; no token at all is INVALID_CREDENTIAL_OR_PROVIDER_ID")
    func configAndBody() async throws {
        try await withFacebook(secret: "wrong") { api, facebook in
            facebook.issue("EAAG-zoe", .init(user: StandInFacebook.user()))
            let reply = try await api.signInWithIdp([("providerId", "facebook.com"), ("access_token", "EAAG-zoe")])
            #expect(reply.errorCode == "INVALID_IDP_RESPONSE" && reply.errorMessage?.contains("Invalid OAuth access token signature") == true)
            let empty = try await api.signInWithIdp([("providerId", "facebook.com")])
            #expect(empty.errorCode == "INVALID_CREDENTIAL_OR_PROVIDER_ID", "\(empty.text)")
        }
    }

    @Test("Facebook down: a clear INVALID_IDP_RESPONSE within the provider call's bound, never a hang")
    func down() async throws {
        try await withFacebook(origin: LoopbackProvider.closedOrigin) { api, _ in
            let started = ContinuousClock.now
            let reply = try await api.signInWithIdp([("providerId", "facebook.com"), ("access_token", "EAAG-zoe")])
            #expect(reply.errorCode == "INVALID_IDP_RESPONSE" && reply.errorMessage?.contains("could not be reached") == true, "\(reply.text)")
            #expect(ContinuousClock.now - started < LoopbackProvider.downBound)
        }
    }

    @Test("Limited Login: the ID token is verified against Facebook's keys, audience and nonce; the nonce works once")
    func limitedLogin() async throws {
        try await withFacebook { api, facebook in
            let token = try facebook.limitedToken(api, nonce: rawNonce)
            let reply = try await api.signInWithIdp([("providerId", "facebook.com"), ("id_token", token), ("nonce", rawNonce)])
            #expect(reply.status == .ok, "\(reply.text)")
            #expect(reply["isNewUser"] == .bool(true) && reply.string("federatedId") == "http://facebook.com/\(Self.zoe)")
            #expect(reply.string("email") == "zoe@example.com" && reply["emailVerified"] == .bool(false))
            #expect(reply.string("oauthIdToken") == token && reply.string("photoUrl") == "https://platform-lookaside.example/zoe")
            let replay = try await api.signInWithIdp([("providerId", "facebook.com"), ("id_token", token), ("nonce", rawNonce)])
            #expect(replay.errorCode == "MISSING_OR_INVALID_NONCE", "\(replay.text)")
            let noNonce = try await api.signInWithIdp([("providerId", "facebook.com"), ("id_token", try facebook.limitedToken(api, nonce: "n2"))])
            #expect(noNonce.errorCode == "MISSING_OR_INVALID_NONCE", "\(noNonce.text)")
            let otherApp = try await api.signInWithIdp([
                ("providerId", "facebook.com"), ("id_token", try facebook.limitedToken(api, audience: "999999", nonce: "n3")), ("nonce", "n3"),
            ])
            #expect(otherApp.errorCode == "INVALID_IDP_RESPONSE", "\(otherApp.text)")
        }
    }

    @Test("the hosted handler: Facebook's login dialog, the code redeemed for an access token checked as any other")
    func webFlow() async throws {
        try await withFacebook { api, facebook in
            try await api.allowApp()
            let start = try await api.handler(API.redirectQuery("facebook.com", sessionID: "fb-session"))
            let location = try #require(start.headers[.location])
            #expect(location.hasPrefix(facebook.origin + "/v19.0/dialog/oauth?"), "\(location)")
            let query = queryItems(of: location)
            #expect(query["client_id"] == StandInFacebook.appID && query["scope"] == "email public_profile")
            let callback = try RedirectCallback(try await api.redirectSignIn("facebook.com", sessionID: "fb-session"))
            let reply = try await api.completeRedirect(link: callback.link, sessionID: "fb-session", providerID: "facebook.com")
            #expect(reply.status == .ok, "\(reply.text)")
            #expect(reply["isNewUser"] == .bool(true) && reply.string("federatedId") == "http://facebook.com/\(Self.zoe)")
            #expect(reply.string("oauthAccessToken")?.hasPrefix("EAAG-") == true)
            // The code is spent.
            let replay = try await api.completeRedirect(link: callback.link, sessionID: "fb-session", providerID: "facebook.com")
            #expect(replay.errorCode == "INVALID_IDP_RESPONSE" && replay.errorMessage?.contains("has been used") == true, "\(replay.text)")
        }
    }
}
