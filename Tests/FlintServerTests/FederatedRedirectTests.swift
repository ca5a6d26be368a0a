import Crypto
import FlintCore
import FlintServerTestSupport
import FlintTesting
import Foundation
import HTTPTypes
import Testing

@testable import FlintServer

@Suite("Federated sign-in through the hosted handler (/__/auth/handler)")
struct FederatedRedirectTests {
    @Test("start: the provider's authorization request carries the client, callback, scopes, sealed state, nonce, PKCE S256 and custom parameters")
    func start() async throws {
        try await withIdentityProviders { api, issuer in
            try await api.allowApp()
            let reply = try await api.handler(
                API.redirectQuery(
                    "oidc.corp", sessionID: "session-1",
                    ["scopes": "groups,offline_access", "customParameters": #"{"prompt":"consent","state":"x"}"#]))
            #expect(reply.status == .seeOther, "\(reply.text)")
            let location = try #require(reply.headers[.location])
            #expect(location.hasPrefix(issuer.issuer + "/authorize?"))
            let query = queryItems(of: location)
            #expect(query["client_id"] == "corp-client" && query["response_type"] == "code")
            #expect(query["redirect_uri"] == "http://127.0.0.1:0/__/auth/handler")
            #expect(query["scope"] == "openid email profile groups offline_access")
            #expect(query["code_challenge_method"] == "S256" && query["code_challenge"]?.count == 43)
            #expect(query["prompt"] == "consent")
            // A custom parameter cannot replace the request's own.
            let state = try #require(query["state"])
            #expect(state != "x" && state.count > 100)
            #expect(query["nonce"]?.count == 64)
            #expect(reply.headers[.cacheControl] == "no-store")
            // FirebaseAuth under useEmulator opens /emulator/auth/handler: the same start.
            let emulator = try await api.handler(API.redirectQuery("oidc.corp", sessionID: "s"), path: "/emulator/auth/handler")
            #expect(emulator.status == .seeOther && emulator.headers[.location]?.hasPrefix(issuer.issuer + "/authorize?") == true)
        }
    }

    @Test("callback to the app, then signInWithIdp with the link and the session ID: a new account, the same one again")
    func signInTwice() async throws {
        try await withIdentityProviders { api, issuer in
            try await api.allowApp()
            let callback = try RedirectCallback(try await api.redirectSignIn("oidc.corp", sessionID: "session-1"))
            #expect(callback.scheme == redirectScheme)
            #expect(callback.inner["authType"] == "signInWithRedirect" && callback.inner["eventId"] == "EVENTABCDE")
            #expect(callback.link.hasPrefix("http://127.0.0.1:0/__/auth/handler?code=auth-"))
            let first = try await api.completeRedirect(link: callback.link, sessionID: "session-1")
            #expect(first.status == .ok, "\(first.text)")
            #expect(first["isNewUser"] == .bool(true) && first.string("providerId") == "oidc.corp" && first.string("federatedId") == "emp-9")
            #expect(first.string("email") == "lin@corp.example" && first.string("idToken") != nil)
            // The code went to the token endpoint with the PKCE verifier and the same redirect_uri (the stand-in checks both).
            let exchange = try #require(issuer.tokenRequests.last)
            #expect(
                exchange.body.contains("code_verifier=") && exchange.body.contains("redirect_uri=http%3A%2F%2F127.0.0.1%3A0%2F__%2Fauth%2Fhandler"))
            // The same link again: the code is spent.
            let replay = try await api.completeRedirect(link: callback.link, sessionID: "session-1")
            #expect(replay.errorCode == "INVALID_IDP_RESPONSE", "\(replay.text)")
            let again = try RedirectCallback(try await api.redirectSignIn("oidc.corp", sessionID: "session-2"))
            let second = try await api.completeRedirect(link: again.link, sessionID: "session-2")
            #expect(second.status == .ok, "\(second.text)")
            #expect(second.string("localId") == first.string("localId") && second["isNewUser"] == .bool(false))
        }
    }

    @Test("the session ID must be the one the sign-in started with; a state not ours or for another host is refused")
    func sessionAndState() async throws {
        try await withIdentityProviders { api, _ in
            try await api.allowApp()
            let callback = try RedirectCallback(try await api.redirectSignIn("oidc.corp", sessionID: "mine"))
            let other = try await api.completeRedirect(link: callback.link, sessionID: "someone-else")
            #expect(other.errorCode == "INVALID_IDP_RESPONSE" && other.errorMessage?.contains("sessionId") == true, "\(other.text)")
            let missing = try await api.completeRedirect(link: callback.link, sessionID: nil)
            #expect(missing.errorCode == "INVALID_IDP_RESPONSE", "\(missing.text)")
            let forged = try await api.completeRedirect(link: "http://127.0.0.1:0/__/auth/handler?code=auth-x&state=forged", sessionID: "mine")
            #expect(forged.errorCode == "INVALID_IDP_RESPONSE", "\(forged.text)")
            let elsewhere = try await api.completeRedirect(
                link: callback.link.replacingOccurrences(of: "127.0.0.1:0", with: "evil.example"), sessionID: "mine", providerID: nil)
            #expect(elsewhere.errorCode == "INVALID_REQUEST_URI", "\(elsewhere.text)")
            let otherProvider = try await api.completeRedirect(link: callback.link, sessionID: "mine", providerID: "google.com")
            #expect(otherProvider.errorCode == "INVALID_IDP_RESPONSE" && otherProvider.errorMessage?.contains("providerId") == true)
            // The right session still completes.
            let good = try await api.completeRedirect(link: callback.link, sessionID: "mine")
            #expect(good.status == .ok, "\(good.text)")
            // A callback whose state is not ours gets a page, not a redirect.
            let page = try await api.handler("code=abc&state=forged")
            #expect(page.status == .badRequest && page.headers[.contentType] == "text/html; charset=utf-8")
            #expect(page.text.contains("not valid or has expired"))
            // An expired sign-in: the callback refuses it.
            let start = try await api.handler(API.redirectQuery("oidc.corp", sessionID: "late"))
            let visit = try await ProviderBrowser.visit(try #require(start.headers[.location]))
            api.clock.advance(by: .seconds(901))
            let late = try await api.call(.get, try #require(visit.handlerPath))
            #expect(late.status == .badRequest, "\(late.text)")
        }
    }

    @Test("the start refuses, with a page, an unknown or disabled provider, an app not the project's, a foreign page, a bad key")
    func refusals() async throws {
        try await withIdentityProviders { api, _ in
            try await api.allowApp()
            try await api.configureIdp("oidc.off", ["enabled": false, "clientId": "c", "clientSecret": "s", "issuer": "https://off.example"])
            let cases: [([String: String], String)] = [
                (["providerId": "oidc.nobody"], "not configured"),
                (["providerId": "oidc.off"], "disabled"),
                (["ibi": "com.other.app"], "flint.appLinks.apple.bundleIds"),
                (["ibi": "", "redirectUrl": "https://evil.example/back"], "authorized domains"),
                (["sessionId": "short"], "sessionId"),
                (["appId": ""], "clientId or appId"),
                (["authType": "bogus"], "authType"),
                (["tid": "tenant-1"], "tenant-1 is not one of this project"),
                (["tid": "bad/tenant"], "tid parameter"),
            ]
            for (extra, words) in cases {
                let page = try await api.handler(API.redirectQuery("oidc.corp", sessionID: "s", extra))
                #expect(page.status == .badRequest, "\(extra): \(page.status)")
                #expect(page.text.contains(words), "\(extra): \(page.text)")
                #expect(page.headers[.location] == nil)
            }
        }
    }

    @Test("a provider disabled after the start: signInWithIdp answers OPERATION_NOT_ALLOWED")
    func disabledAfterStart() async throws {
        try await withIdentityProviders { api, _ in
            try await api.allowApp()
            let callback = try RedirectCallback(try await api.redirectSignIn("oidc.corp", sessionID: "s"))
            let off = try await api.admin(
                .patch, "\(Path.oauthIdps)/oidc.corp?updateMask=enabled", body: #"{"enabled":false}"#)
            #expect(off.status == .ok, "\(off.text)")
            let reply = try await api.completeRedirect(link: callback.link, sessionID: "s")
            #expect(reply.errorCode == "OPERATION_NOT_ALLOWED", "\(reply.text)")
        }
    }

    @Test("the provider's error goes back to the app as a firebaseError")
    func providerError() async throws {
        try await withIdentityProviders { api, _ in
            try await api.allowApp()
            let callback = try RedirectCallback(
                try await api.redirectSignIn("oidc.corp", sessionID: "s", ["customParameters": #"{"login_hint":"deny"}"#]))
            #expect(callback.inner["link"] == nil)
            let error = try #require(callback.inner["firebaseError"].flatMap { try? JSONValue(parsing: Array($0.utf8)) })
            #expect(error["code"]?.stringValue == "auth/user-cancelled")
            #expect(error["message"]?.stringValue?.contains("access_denied") == true)
            // A callback with neither a code nor an error goes back with an error too.
            let start = try await api.handler(API.redirectQuery("oidc.corp", sessionID: "s"))
            let authorization = try #require(start.headers[.location])
            let state = try #require(queryItems(of: authorization)["state"])
            let empty = try RedirectCallback(try await api.handler(URLQuery.encode([("state", state)])))
            #expect(empty.inner["link"] == nil && empty.inner["firebaseError"]?.contains("auth/invalid-credential") == true)
        }
    }

    @Test("Google and Apple (form_post, with the name Apple gives once) through the handler")
    func googleAndApple() async throws {
        try await withIdentityProviders { api, issuer in
            try await api.allowApp()
            let secret = try await api.admin(
                .patch, "\(Path.defaultIdps)/apple.com?updateMask=clientSecret", body: #"{"clientSecret":"apple-client-secret-jwt"}"#)
            #expect(secret.status == .ok, "\(secret.text)")
            issuer.signIn(as: ["sub": "g-1", "email": "ada@gmail.com", "email_verified": true, "name": "Ada"])
            let google = try RedirectCallback(try await api.redirectSignIn("google.com", sessionID: "g"))
            let start = try #require(issuer.authorizeRequests.last)
            #expect(start["scope"] == "openid email profile" && start["client_id"] == googleClientID)
            let googleReply = try await api.completeRedirect(link: google.link, sessionID: "g", providerID: "google.com")
            #expect(googleReply.status == .ok && googleReply.string("federatedId") == "https://accounts.google.com/g-1", "\(googleReply.text)")

            issuer.signIn(as: ["sub": "001.apple", "email": "x9@privaterelay.appleid.com", "email_verified": "true"])
            let start2 = try await api.handler(API.redirectQuery("apple.com", sessionID: "a"))
            let visit = try await ProviderBrowser.visit(try #require(start2.headers[.location]))
            let appleQuery = try #require(issuer.authorizeRequests.last)
            #expect(appleQuery["response_mode"] == "form_post" && appleQuery["scope"] == "name email")
            var form = try #require(visit.form)
            form.append(("user", #"{"name":{"firstName":"Zeynep","lastName":"Kaya"}}"#))
            let posted = try await api.call(.post, Path.handler, body: URLQuery.encode(form), contentType: "application/x-www-form-urlencoded")
            let apple = try RedirectCallback(posted)
            let appleReply = try await api.completeRedirect(link: apple.link, sessionID: "a", providerID: "apple.com")
            #expect(appleReply.status == .ok, "\(appleReply.text)")
            #expect(appleReply.string("displayName") == "Zeynep Kaya" && appleReply.string("providerId") == "apple.com")
            // Apple's token endpoint takes the client secret in the form.
            #expect(issuer.tokenRequests.last?.body.contains("client_secret=apple-client-secret-jwt") == true)
        }
    }

    @Test("Apple without a clientSecret: the token endpoint gets a client secret JWT signed with the codeFlowConfig key")
    func appleCodeFlowSecret() async throws {
        try await withIdentityProviders { api, issuer in
            try await api.allowApp()
            let key = P256.Signing.PrivateKey()
            let flow: JSONValue = [
                "appleSignInConfig": [
                    "codeFlowConfig": ["teamId": "TEAM123456", "keyId": "KEY1234567", "privateKey": .string(key.pemRepresentation)]
                ]
            ]
            let patched = try await api.admin(
                .patch, "\(Path.defaultIdps)/apple.com?updateMask=appleSignInConfig.codeFlowConfig",
                body: String(decoding: flow.serialized(), as: UTF8.self))
            #expect(patched.status == .ok, "\(patched.text)")
            issuer.signIn(as: ["sub": "001.apple", "email": "x9@privaterelay.appleid.com", "email_verified": "true"])
            let start = try await api.handler(API.redirectQuery("apple.com", sessionID: "a"))
            let visit = try await ProviderBrowser.visit(try #require(start.headers[.location]))
            let posted = try await api.call(
                .post, Path.handler, body: URLQuery.encode(try #require(visit.form)), contentType: "application/x-www-form-urlencoded")
            let reply = try await api.completeRedirect(link: try RedirectCallback(posted).link, sessionID: "a", providerID: "apple.com")
            #expect(reply.status == .ok, "\(reply.text)")
            let form = FormDecoding.decode(try #require(issuer.tokenRequests.last?.body))
            let secret = try #require(form["client_secret"])
            let parts = secret.split(separator: ".").map(String.init)
            #expect(parts.count == 3)
            let header = try JWT.header(secret)
            #expect(header["alg"] == "ES256" && header["kid"] == "KEY1234567")
            let claims = try JWT.payload(secret)
            #expect(claims["iss"] == "TEAM123456" && claims["sub"] == .string(appleServicesID) && claims["aud"] == "https://appleid.apple.com")
            let signature = try P256.Signing.ECDSASignature(rawRepresentation: try #require(Base64URL.decode(parts[2])))
            #expect(key.publicKey.isValidSignature(signature, for: Array((parts[0] + "." + parts[1]).utf8)))
            #expect(form["client_id"] == appleServicesID)
        }
    }

    @Test("a sign-in started on one node completes on another sharing the store: nothing but the sealed state is kept")
    func anotherNode() async throws {
        let issuer = try StandInIssuer()
        let path = temporaryDatabasePath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await issuer.serve {
            let link = try await TestNode.make(path: path).run { api in
                try await api.configureIdp(
                    "oidc.corp", ["enabled": true, "clientId": "corp-client", "clientSecret": "corp-secret", "issuer": .string(issuer.issuer)])
                try await api.allowApp()
                return try RedirectCallback(try await api.redirectSignIn("oidc.corp", sessionID: "s")).link
            }
            try await TestNode.make(path: path).run { api in
                issuer.follow(api.clock)
                let reply = try await api.completeRedirect(link: link, sessionID: "s")
                #expect(reply.status == .ok && reply["isNewUser"] == .bool(true), "\(reply.text)")
            }
        }
    }

    @Test("a web page: back to its redirectUrl with the link, which signInWithIdp completes; linking with idToken")
    func webPage() async throws {
        try await withIdentityProviders { api, _ in
            let start = try await api.handler(
                URLQuery.encode([
                    ("apiKey", "test"), ("authType", "signInViaRedirect"), ("providerId", "oidc.corp"),
                    ("redirectUrl", "http://localhost/done?from=test#top"), ("eventId", "web-1"),
                ]))
            #expect(start.status == .seeOther, "\(start.text)")
            let visit = try await ProviderBrowser.visit(try #require(start.headers[.location]))
            let back = try await api.call(.get, try #require(visit.handlerPath))
            let location = try #require(back.headers[.location])
            #expect(location.hasPrefix("http://localhost/done?from=test&") && location.hasSuffix("#top"))
            let query = queryItems(of: location)
            #expect(query["authType"] == "signInViaRedirect" && query["eventId"] == "web-1")
            let signedIn = try await api.signIn("+15555550100")
            let linked = try await api.completeRedirect(link: try #require(query["link"]), sessionID: nil, providerID: nil, idToken: signedIn.idToken)
            #expect(linked.status == .ok && linked.string("localId") == signedIn.localId, "\(linked.text)")
        }
    }
}
