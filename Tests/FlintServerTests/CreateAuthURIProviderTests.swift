import FlintCore
import FlintServerTestSupport
import FlintTesting
import Foundation
import HTTPTypes
import Testing

@testable import FlintServer

@Suite("createAuthUri with a provider: its authUri, completed by signInWithIdp with the callback and sessionId")
struct CreateAuthURIProviderTests {
    @Test("an OIDC provider's authUri goes back to the app's continueUri; signInWithIdp with that callback and the session ID signs in once")
    func oidcFlow() async throws {
        try await withIdentityProviders { api, issuer in
            let continueURI = "http://localhost/callback"
            let reply = try await api.postJSON(
                Path.createAuthURI,
                [
                    "providerId": "oidc.corp", "continueUri": continueURI, "sessionId": "app-session-1", "oauthScope": "groups",
                    "customParameter": ["prompt": "consent"],
                ])
            #expect(reply.status == .ok, "\(reply.text)")
            #expect(reply.string("providerId") == "oidc.corp" && reply.string("sessionId") == "app-session-1")
            let authURI = try #require(reply.string("authUri"))
            #expect(authURI.hasPrefix(issuer.issuer + "/authorize?"))
            let query = queryItems(of: authURI)
            #expect(query["redirect_uri"] == continueURI && query["client_id"] == "corp-client" && query["prompt"] == "consent")
            #expect(query["scope"] == "openid email profile groups")
            // The provider sends the browser back to the app's URL with the code and the state.
            let visit = try await ProviderBrowser.visit(authURI)
            let back = try #require(visit.handlerPath)
            #expect(back.hasPrefix("/callback?code="))
            let callback = "http://localhost" + back
            let other = try await api.completeRedirect(link: callback, sessionID: "someone-else")
            #expect(other.errorCode == "INVALID_IDP_RESPONSE", "\(other.text)")
            let signedIn = try await api.completeRedirect(link: callback, sessionID: "app-session-1")
            #expect(signedIn.status == .ok && signedIn["isNewUser"] == .bool(true) && signedIn.string("federatedId") == "emp-9", "\(signedIn.text)")
            // The code went to the token endpoint with the same redirect_uri and the PKCE verifier.
            #expect(issuer.tokenRequests.last?.body.contains("redirect_uri=http%3A%2F%2Flocalhost%2Fcallback") == true)
            let again = try await api.completeRedirect(link: callback, sessionID: "app-session-1")
            #expect(again.errorCode == "INVALID_IDP_RESPONSE", "\(again.text)")
        }
    }

    @Test("unknown, disabled and unauthorized: Firebase's errors")
    func refusals() async throws {
        try await withIdentityProviders { api, _ in
            func ask(_ provider: String, _ continueURI: String = "http://localhost/cb") async throws -> Reply {
                try await api.post(Path.createAuthURI, ["providerId": provider, "continueUri": continueURI])
            }
            #expect(try await ask("myspace.com").errorCode == "INVALID_PROVIDER_ID")
            #expect(try await ask("oidc.corp", "https://evil.example/cb").errorCode == "UNAUTHORIZED_DOMAIN")
            #expect(try await ask("oidc.corp", "").errorCode == "MISSING_CONTINUE_URI")
            try await api.configureIdp("oidc.off", ["enabled": false, "clientId": "c", "clientSecret": "s", "issuer": "https://id.example"])
            #expect(try await ask("oidc.off").errorCode == "OPERATION_NOT_ALLOWED")
        }
    }
}
