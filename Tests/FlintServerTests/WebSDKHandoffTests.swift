import FlintCore
import FlintServerTestSupport
import FlintTesting
import FlintTexts
import Foundation
import HTTPTypes
import Testing

@testable import FlintServer

@Suite("The Firebase JS SDK's popup and redirect through the hosted handler and the iframe")
struct WebSDKHandoffTests {
    @Test("a JS SDK start answers a page that keeps a session ID Flint made and goes on to the provider; the state carries it all")
    func start() async throws {
        try await withIdentityProviders { api, issuer in
            let start = try HandlerPage(
                try await api.handler(
                    API.webSDKQuery("oidc.corp", ["scopes": "groups", "customParameters": #"{"prompt":"consent"}"#]), path: "/emulator/auth/handler"))
            #expect(start.status == .ok, "\(start.reply.text)")
            #expect(start.reply.headers[.contentSecurityPolicy] == WebSDKPage.handlerPolicy)
            #expect(start.reply.headers[HTTPField.Name("Cross-Origin-Opener-Policy")!] == nil)
            #expect(start.reply.headers[.cacheControl] == "no-store")
            // No inline script: the page's one script is Flint's own.
            #expect(start.reply.text.contains("<script src=\"/__/auth/handler.js\"></script>"))
            #expect(start.reply.text.components(separatedBy: "<script").count == 2)
            let session = try #require(start["session"])
            #expect(Base64URL.decode(session)?.count == 32)
            #expect(start["session-key"] == WebSDKHandoff.sessionKeyPrefix + ProviderNonceRule.sha256Hex(session))
            let next = try #require(start["next"])
            #expect(next.hasPrefix(issuer.issuer + "/authorize?"))
            // Where the provider comes back: a start opened elsewhere stops (its script compares) rather than lose its session.
            #expect(start["origin"] == "http://127.0.0.1:0" && start["wrong-origin"]?.contains("http://127.0.0.1:0") == true)
            let query = queryItems(of: next)
            #expect(query["scope"] == "openid email profile groups" && query["prompt"] == "consent")
            #expect(query["redirect_uri"] == "http://127.0.0.1:0/__/auth/handler")
            // The state is sealed; what it carries comes back in the callback's page (the round-trip tests).
            #expect(query["state"].map { $0.count > 100 } == true && query["code_challenge_method"] == "S256")
            // Each start has its own session.
            let again = try HandlerPage(try await api.handler(API.webSDKQuery("oidc.corp"), path: "/__/auth/handler"))
            #expect(again["session"] != session && again["step"] == "start")
        }
    }

    @Test("popup: the callback's page holds the event with the link; signInWithIdp with it and the session ID signs in, once")
    func popupRoundTrip() async throws {
        try await withIdentityProviders { api, _ in
            let (start, callback) = try await api.webSDKSignIn("oidc.corp")
            #expect(callback.status == .ok, "\(callback.reply.text)")
            #expect(callback.reply.headers[.contentSecurityPolicy] == WebSDKPage.handlerPolicy)
            #expect(callback.reply.headers[HTTPField.Name("Cross-Origin-Opener-Policy")!] == nil)
            #expect(callback["step"] == "event" && callback["mode"] == "popup")
            #expect(callback["api-key"] == "test" && callback["app-name"] == "[DEFAULT]")
            #expect(callback["redirect-url"] == "http://localhost:5000/app?page=1")
            #expect(callback["session-key"] == start["session-key"])
            let event = try #require(callback.event)
            #expect(event["type"] == "signInViaPopup" && event["eventId"] == "4815162342")
            #expect(event["sessionId"] == .null && event["postBody"] == .null && event["tenantId"] == .null && event["error"] == nil)
            let link = try #require(event["urlResponse"]?.stringValue)
            #expect(link.hasPrefix("http://127.0.0.1:0/__/auth/handler?code=auth-"))
            // The raw session ID is never in the callback's page: the script takes it from sessionStorage.
            #expect(!callback.reply.text.contains(try #require(start["session"])))
            let other = try await api.completeWebSDK(link: link, sessionID: "not-the-session")
            #expect(other.errorCode == "INVALID_IDP_RESPONSE", "\(other.text)")
            // As the JS SDK sends it: requestUri, sessionId, no postBody, returnSecureToken, returnIdpCredential.
            let reply = try await api.completeWebSDK(link: link, sessionID: start["session"])
            #expect(reply.status == .ok && reply["isNewUser"] == .bool(true) && reply.string("providerId") == "oidc.corp", "\(reply.text)")
            let replay = try await api.completeWebSDK(link: link, sessionID: start["session"])
            #expect(replay.errorCode == "INVALID_IDP_RESPONSE", "\(replay.text)")
        }
    }

    @Test("redirect: no eventId (null in the event), the page to return to; link and reauth event IDs with the user's ID")
    func redirectRoundTrip() async throws {
        try await withIdentityProviders { api, issuer in
            let (start, callback) = try await api.webSDKSignIn("oidc.corp", authType: "signInViaRedirect")
            #expect(callback["mode"] == "redirect" && callback["redirect-url"] == "http://localhost:5000/app?page=1")
            let event = try #require(callback.event)
            #expect(event["type"] == "signInViaRedirect" && event["eventId"] == .null)
            let signedIn = try await api.completeWebSDK(link: try #require(event["urlResponse"]?.stringValue), sessionID: start["session"])
            #expect(signedIn.status == .ok, "\(signedIn.text)")
            // linkWithRedirect: `<uid>:::<10 digits>`, completed with the user's ID token.
            let user = try await api.signIn("+15555550100")
            issuer.signIn(as: ["sub": "emp-link", "email": "link@corp.example", "email_verified": true])
            let eventID = "\(user.localId):::0123456789"
            let (linkStart, linkCallback) = try await api.webSDKSignIn("oidc.corp", authType: "linkViaRedirect", ["eventId": eventID])
            let linkEvent = try #require(linkCallback.event)
            #expect(linkEvent["type"] == "linkViaRedirect" && linkEvent["eventId"]?.stringValue == eventID)
            let linked = try await api.completeWebSDK(
                link: try #require(linkEvent["urlResponse"]?.stringValue), sessionID: linkStart["session"], idToken: user.idToken)
            #expect(linked.status == .ok && linked.string("localId") == user.localId && linked.string("federatedId") == "emp-link", "\(linked.text)")
            for authType in ["reauthViaRedirect", "linkViaPopup", "reauthViaPopup"] {
                let (_, page) = try await api.webSDKSignIn("google.com", authType: authType, ["eventId": eventID])
                #expect(page.event?["type"]?.stringValue == authType && page.event?["eventId"]?.stringValue == eventID)
                #expect(page["mode"] == (authType.hasSuffix("Popup") ? "popup" : "redirect"))
            }
        }
    }

    @Test("the provider's error becomes an error event (auth/user-cancelled), with no session to take")
    func providerError() async throws {
        try await withIdentityProviders { api, _ in
            for authType in ["signInViaPopup", "signInViaRedirect"] {
                let (_, page) = try await api.webSDKSignIn("oidc.corp", authType: authType, ["customParameters": #"{"login_hint":"deny"}"#])
                #expect(page.status == .ok, "\(page.reply.text)")
                let event = try #require(page.event)
                #expect(event["type"]?.stringValue == authType && event["urlResponse"] == .null)
                #expect(event["error"]?["code"] == "auth/user-cancelled")
                #expect(event["error"]?["message"]?.stringValue?.contains("access_denied") == true)
                #expect(page["session-key"] == nil)
                #expect(page.reply.text.contains("access_denied"))
            }
        }
    }

    @Test(
        "a start that cannot start: an error event for a popup or an authorized page, an error page otherwise",
        arguments: [
            (["providerId": "oidc.nobody"], "auth/operation-not-allowed", "not configured"),
            (["providerId": "oidc.off"], "auth/operation-not-allowed", "disabled"),
            (["redirectUrl": "https://evil.example/app"], "auth/unauthorized-domain", "authorized domains"),
        ])
    func refusedStart(extra: [String: String], code: String, words: String) async throws {
        try await withIdentityProviders { api, _ in
            try await api.configureIdp("oidc.off", ["enabled": false, "clientId": "c", "clientSecret": "s", "issuer": "https://off.example"])
            let popup = try HandlerPage(try await api.handler(API.webSDKQuery("oidc.corp", extra), path: "/emulator/auth/handler"))
            #expect(popup.status == .badRequest && popup["mode"] == "popup", "\(popup.reply.text)")
            #expect(popup.event?["error"]?["code"]?.stringValue == code && popup.event?["eventId"] == "4815162342")
            #expect(popup.reply.text.contains(words) && popup["session-key"] == nil)
            let redirect = try HandlerPage(try await api.handler(API.webSDKQuery("oidc.corp", authType: "signInViaRedirect", extra)))
            #expect(redirect.status == .badRequest && redirect.reply.text.contains(words))
            if code == "auth/unauthorized-domain" {
                // Nothing goes back to a page the project does not authorize.
                #expect(redirect.data.isEmpty && redirect.reply.headers[.location] == nil)
            } else {
                #expect(redirect["mode"] == "redirect" && redirect.event?["error"]?["code"]?.stringValue == code)
            }
        }
    }

    @Test(
        "a malformed JS SDK start gets an error page, never a crash",
        arguments: [
            (["authType": "signInViaBogus"], "authType"), (["redirectUrl": ""], "redirectUrl"),
            (["redirectUrl": "javascript:alert(1)"], "redirectUrl"),
            (["tid": "bad tenant"], "tid"), (["eventId": "has space"], "eventId"), (["appName": "caf\u{e9}"], "appName"),
            (["apiKey": ""], "apiKey"), (["providerId": ""], "providerId"), (["customParameters": "[1]"], "customParameters"),
            (["redirectUrl": "https://localhost/" + String(repeating: "a", count: 4096)], "redirectUrl"),
        ])
    func malformedStart(extra: [String: String], words: String) async throws {
        try await withFlint { api in
            let page = try await api.handler(API.webSDKQuery("oidc.corp", extra), path: "/emulator/auth/handler")
            #expect(page.status == .badRequest && page.text.contains(words), "\(extra): \(page.text)")
            #expect(try HandlerPage(page).data.isEmpty && page.headers[.location] == nil)
        }
    }

    @Test("a key the project does not have: an error event auth/invalid-api-key, and no iframe")
    func apiKey() async throws {
        try await withFlint(configure: { ($0.devMode, $0.apiKeys, $0.adminToken) = (false, ["good-key"], "owner") }) { api in
            let page = try HandlerPage(try await api.handler(API.webSDKQuery("oidc.corp", ["apiKey": "bad-key"]), path: "/emulator/auth/handler"))
            #expect(page.status == .badRequest && page.event?["error"]?["code"] == "auth/invalid-api-key", "\(page.reply.text)")
            let iframe = try await api.call(.get, "/__/auth/iframe?apiKey=bad-key&appName=%5BDEFAULT%5D")
            #expect(iframe.status == .badRequest && iframe.text.contains("API key"))
            // Production: the frame ancestors are the authorized domains only.
            try await api.patchConfig(#"{"authorizedDomains":["app.example.com","10.0.0.7"]}"#, mask: "authorizedDomains")
            let good = try await api.call(.get, "/__/auth/iframe?apiKey=good-key&appName=%5BDEFAULT%5D&v=12.6.0&eid=p")
            #expect(good.status == .ok, "\(good.text)")
            #expect(
                good.headers[.contentSecurityPolicy]?.contains(
                    "frame-ancestors http://app.example.com:* https://app.example.com:* http://10.0.0.7:* https://10.0.0.7:*;") == true,
                "\(good.headers)")
        }
    }

    @Test("the iframe page: gapi and Flint's script, framed only by the authorized domains (and localhost in dev mode)")
    func iframe() async throws {
        try await withFlint { api in
            for path in ["/__/auth/iframe", "/emulator/auth/iframe"] {
                let page = try await api.call(.get, path + "?apiKey=test&appName=%5BDEFAULT%5D&v=12.6.0&eid=p")
                #expect(page.status == .ok && page.headers[.contentType] == "text/html; charset=utf-8", "\(page.text)")
                let policy = try #require(page.headers[.contentSecurityPolicy])
                #expect(policy.contains("frame-ancestors http://localhost:* https://localhost:*;"), "\(policy)")
                #expect(policy.contains("script-src 'self' https://apis.google.com;"))
                #expect(page.headers[HTTPField.Name("X-Frame-Options")!] == nil)
                #expect(page.headers[HTTPField.Name("Cross-Origin-Opener-Policy")!] == nil)
                #expect(page.text.contains("<script src=\"/__/auth/iframe.js\"></script>"))
                #expect(page.text.split(separator: "<script", omittingEmptySubsequences: false).count == 2)
            }
            try await api.patchConfig(#"{"authorizedDomains":["app.example.com"]}"#, mask: "authorizedDomains")
            let page = try await api.call(.get, "/__/auth/iframe?apiKey=test&appName=app-2")
            #expect(
                page.headers[.contentSecurityPolicy]?.contains(
                    "frame-ancestors http://app.example.com:* https://app.example.com:* http://localhost:* https://localhost:*;") == true)
            for query in ["apiKey=test", "appName=x", "apiKey=a%22b&appName=x"] {
                let refused = try await api.call(.get, "/__/auth/iframe?" + query)
                #expect(refused.status == .badRequest, "\(query)")
            }
            for (path, words) in [
                ("/__/auth/iframe.js", "https://apis.google.com/js/api.js"), ("/__/auth/handler.js", "firebase:redirectEvent:"),
                ("/__/auth/gapi.js", "getParentIframe"),
            ] {
                let script = try await api.call(.get, path)
                #expect(script.status == .ok && script.headers[.contentType] == "text/javascript; charset=utf-8" && script.text.contains(words))
            }
        }
    }

    @Test("the iOS SDK's start and a plain page's are unchanged: a 303, no page")
    func otherStartsUnchanged() async throws {
        try await withIdentityProviders { api, _ in
            try await api.allowApp()
            let ios = try await api.handler(API.redirectQuery("oidc.corp", sessionID: "s", ["appName": "ignored-without-redirectUrl"]))
            #expect(ios.status == .seeOther, "\(ios.text)")
            let plain = try await api.handler(API.webSDKQuery("oidc.corp", authType: "signInViaRedirect", ["appName": ""]))
            #expect(plain.status == .seeOther, "\(plain.text)")
        }
    }
}
