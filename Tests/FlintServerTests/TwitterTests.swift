import FlintCore
import FlintServerTestSupport
import Foundation
import HTTPTypes
import Testing

@testable import FlintServer

@Suite("X (twitter.com): OAuth 1.0a credentials and web flow")
struct TwitterTests {
    static let lin = StandInTwitter.User(id: "7001", screenName: "lin_x", name: "Lin X", email: "lin@x.example")

    @Test("requests are signed as RFC 5849 and X's documentation compute it")
    func signatureVector() {
        // X's worked example ("Creating a signature"): its parameters, base string and signature.
        let parameters = [
            ("status", "Hello Ladies + Gentlemen, a signed OAuth request!"), ("oauth_consumer_key", "xvz1evFS4wEEPTGEFPHBog"),
            ("oauth_nonce", "kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg"), ("oauth_signature_method", "HMAC-SHA1"),
            ("oauth_timestamp", "1318622958"), ("oauth_token", "370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb"), ("oauth_version", "1.0"),
        ]
        let base = OAuth1.baseString(
            method: "post", url: "https://API.twitter.com:443/1/statuses/update.json?include_entities=true", parameters: parameters)
        #expect(
            base
                == "POST&https%3A%2F%2Fapi.twitter.com%2F1%2Fstatuses%2Fupdate.json&include_entities%3Dtrue%26oauth_consumer_key%3Dxvz1evFS4wEEPTGEFPHBog%26oauth_nonce%3DkYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D1318622958%26oauth_token%3D370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb%26oauth_version%3D1.0%26status%3DHello%2520Ladies%2520%252B%2520Gentlemen%252C%2520a%2520signed%2520OAuth%2520request%2521"
        )
        let signer = OAuth1(
            consumerKey: "xvz1evFS4wEEPTGEFPHBog", consumerSecret: "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw",
            token: "370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb", tokenSecret: "LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE")
        #expect(signer.sign(base) == "tnnArxj06cWHq44gCs1OSKk/jLY=")
        #expect(OAuth1.baseURL("HTTP://Example.com:80") == "http://example.com/")
        #expect(OAuth1.baseURL("http://127.0.0.1:8080/a/b") == "http://127.0.0.1:8080/a/b")
    }

    @Test("an app's token and secret sign up a new account, then sign in to it again; X's email stays unverified")
    func newThenReturning() async throws {
        try await withTwitter { api, twitter in
            let issued = twitter.issueAccessToken(for: Self.lin)
            let body = [("providerId", "twitter.com"), ("access_token", issued.token), ("oauth_token_secret", issued.secret)]
            let first = try await api.signInWithIdp(body)
            #expect(first.status == .ok, "\(first.text)")
            #expect(first["isNewUser"] == .bool(true) && first.string("idToken") != nil)
            #expect(first.string("federatedId") == "http://twitter.com/7001" && first.string("providerId") == "twitter.com")
            #expect(first.string("screenName") == "lin_x" && first.string("displayName") == "Lin X")
            #expect(first.string("email") == "lin@x.example" && first["emailVerified"] == .bool(false))
            #expect(first.string("photoUrl") == "https://pbs.twimg.example/7001_normal.jpg")
            #expect(first.string("oauthAccessToken") == issued.token && first.string("oauthTokenSecret") == issued.secret)
            let rawText = try #require(first.string("rawUserInfo"))
            let raw = try JSONValue(parsing: Array(rawText.utf8))
            #expect(raw["id_str"]?.stringValue == "7001" && raw["screen_name"]?.stringValue == "lin_x")
            let second = try await api.signInWithIdp(body, returnIdpCredential: false)
            #expect(second.status == .ok, "\(second.text)")
            #expect(second["isNewUser"] == .bool(false) && second.string("localId") == first.string("localId"))
            #expect(second.string("oauthTokenSecret") == nil)
            let localID = try #require(first.string("localId"))
            let account = try #require(try await api.adminAccount(localID))
            let identity = account["providerUserInfo"]?.arrayValue?.first { $0["providerId"]?.stringValue == "twitter.com" }
            #expect(identity?["rawId"]?.stringValue == "7001" && identity?["screenName"]?.stringValue == "lin_x")
        }
    }

    @Test("linked to a signed-in account; X's unverified email of another account asks for confirmation")
    func linkAndConfirmation() async throws {
        try await withTwitter { api, twitter in
            let user = try await api.signUp("ada@example.com")
            let issued = twitter.issueAccessToken(for: StandInTwitter.User(id: "7002", screenName: "ada", name: "Ada", email: nil))
            let linked = try await api.signInWithIdp(
                [("providerId", "twitter.com"), ("access_token", issued.token), ("oauth_token_secret", issued.secret)], idToken: user.idToken)
            #expect(linked.status == .ok && linked.string("localId") == user.localId, "\(linked.text)")
            let owner = try await api.signUp("lin@x.example")
            let lin = twitter.issueAccessToken(for: Self.lin)
            let confirm = try await api.signInWithIdp([
                ("providerId", "twitter.com"), ("access_token", lin.token), ("oauth_token_secret", lin.secret),
            ])
            #expect(confirm["needConfirmation"] == .bool(true) && confirm.string("localId") == owner.localId, "\(confirm.text)")
            #expect(confirm.string("idToken") == nil && confirm.string("pendingToken") != nil)
        }
    }

    @Test("X refusing the token and a body without its secret are INVALID_IDP_RESPONSE with the reason")
    func providerErrors() async throws {
        try await withTwitter { api, twitter in
            let issued = twitter.issueAccessToken(for: Self.lin)
            let wrongSecret = try await api.signInWithIdp(
                [("providerId", "twitter.com"), ("access_token", issued.token), ("oauth_token_secret", "not-the-secret")])
            #expect(wrongSecret.errorCode == "INVALID_IDP_RESPONSE" && wrongSecret.errorMessage?.contains("Invalid or expired token") == true)
            let unknown = try await api.signInWithIdp([("providerId", "twitter.com"), ("access_token", "1-revoked"), ("oauth_token_secret", "s")])
            #expect(unknown.errorCode == "INVALID_IDP_RESPONSE", "\(unknown.text)")
            let noSecret = try await api.signInWithIdp([("providerId", "twitter.com"), ("access_token", issued.token)])
            #expect(noSecret.errorCode == "INVALID_IDP_RESPONSE" && noSecret.errorMessage?.contains("oauth_token_secret") == true)
        }
    }

    @Test("X down answers the app a clear error at once, for a credential and for the web flow")
    func providerDown() async throws {
        try await withTwitter { api, twitter in
            try await api.allowApp()
            let issued = twitter.issueAccessToken(for: Self.lin)
            twitter.setDown(true)
            let down = try await api.signInWithIdp(
                [("providerId", "twitter.com"), ("access_token", issued.token), ("oauth_token_secret", issued.secret)])
            #expect(down.errorCode == "INVALID_IDP_RESPONSE" && down.errorMessage?.contains("unavailable: Over capacity") == true, "\(down.text)")
            let start = try await api.handler(API.redirectQuery("twitter.com", sessionID: "session-1"))
            #expect(start.status == .badRequest && start.text.contains("Over capacity"), "\(start.text)")
        }
    }

    @Test("the hosted handler's three legs: request token, X's page, callback with the browser's cookie, signInWithIdp")
    func webFlow() async throws {
        try await withTwitter { api, _ in
            try await api.allowApp()
            let start = try await api.handler(API.redirectQuery("twitter.com", sessionID: "session-1"))
            #expect(start.status == .seeOther, "\(start.text)")
            let location = try #require(start.headers[.location])
            #expect(location.contains("/oauth/authenticate?oauth_token=req-"))
            let setCookie = try #require(start.headers[.setCookie])
            #expect(setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Lax") && setCookie.contains("Path=/__/auth/"))
            #expect(!setCookie.contains("Secure"), "the dev node is served over plain http")
            let cookie = String(setCookie.prefix { $0 != ";" })
            let visit = try await ProviderBrowser.visit(location)
            let back = try #require(visit.handlerPath)
            #expect(back.contains("oauth_verifier=") && back.contains("state="))
            // Without the cookie (another browser, cookies off) the app is told why.
            let lost = try RedirectCallback(try await api.call(.get, back))
            #expect(lost.link.isEmpty && lost.inner["firebaseError"]?.contains("request token") == true)
            let callback = try RedirectCallback(try await api.call(.get, back, headers: [.cookie: cookie]))
            #expect(callback.link.contains("oauth_token=req-"))
            let first = try await api.completeRedirect(link: callback.link, sessionID: "session-1", providerID: "twitter.com")
            #expect(first.status == .ok, "\(first.text)")
            #expect(first["isNewUser"] == .bool(true) && first.string("screenName") == "lin_x" && first.string("oauthTokenSecret") != nil)
            // The verifier is spent with the sign-in: the link works once.
            let replay = try await api.completeRedirect(link: callback.link, sessionID: "session-1", providerID: "twitter.com")
            #expect(replay.status == .badRequest, "\(replay.text)")
        }
    }

    @Test("cancelling at X sends the app auth/user-cancelled and clears the request token's cookie")
    func cancelled() async throws {
        try await withTwitter { api, twitter in
            try await api.allowApp()
            twitter.signIn(as: nil)
            let start = try await api.handler(API.redirectQuery("twitter.com", sessionID: "session-1"))
            let location = try #require(start.headers[.location])
            let visit = try await ProviderBrowser.visit(location)
            let back = try #require(visit.handlerPath)
            let reply = try await api.call(.get, back)
            #expect(reply.headers[.setCookie]?.contains("Max-Age=0") == true)
            let callback = try RedirectCallback(reply)
            #expect(callback.inner["firebaseError"]?.contains("auth/user-cancelled") == true, "\(callback.inner)")
        }
    }
}
