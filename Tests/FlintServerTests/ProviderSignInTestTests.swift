import FlintCore
import FlintServerTestSupport
import FlintStore
import FlintTesting
import Foundation
import HTTPTypes
import Testing

@testable import FlintServer

@Suite("An operator's test of a provider's web sign-in (Flows.testProviderSignIn)")
struct ProviderSignInTestTests {
    /// A plain page's redirect sign-in with `oidc.corp` through the handler, for the raw session ID `sessionID`: the
    /// callback link the handler sends back to the page.
    private func webLink(_ api: API, sessionID: String) async throws -> String {
        let query = URLQuery.encode([
            ("apiKey", "test"), ("authType", "signInViaRedirect"), ("providerId", "oidc.corp"), ("redirectUrl", "http://localhost/back"),
            ("sessionId", ProviderNonceRule.sha256Hex(sessionID)), ("eventId", "console-test"),
        ])
        let start = try await api.handler(query)
        #expect(start.status == .seeOther, "\(start.text)")
        let provider = try await ProviderBrowser.visit(try #require(start.headers[.location]))
        let back = try await api.call(.get, try #require(provider.handlerPath))
        let location = try #require(back.headers[.location])
        #expect(location.hasPrefix("http://localhost/back?"))
        return try #require(queryItems(of: location)["link"])
    }

    @Test("it verifies the provider's answer as signInWithIdp does, creates no account, spends the link, and names an existing account")
    func verifiesWithoutAccount() async throws {
        let issuer = try StandInIssuer()
        try await issuer.serve {
            let node = try await TestNode.make()
            try await node.run { api in
                issuer.follow(api.clock)
                try await api.configureIdp(
                    "oidc.corp", ["enabled": true, "clientId": "corp-client", "clientSecret": "corp-secret", "issuer": .string(issuer.issuer)])
                let flows = node.server.flows
                let link = try await webLink(api, sessionID: "test-1")
                await #expect(throws: AuthError.invalidIdpResponse("")) { try await flows.testProviderSignIn(requestUri: link, sessionID: "other") }
                let found = try await flows.testProviderSignIn(requestUri: link, sessionID: "test-1")
                #expect(found.providerID == "oidc.corp" && found.rawID == "emp-9" && found.email == "lin@corp.example" && found.emailVerified)
                #expect(found.localID == nil)
                #expect(try await node.store.read { try await $0.userCount(tenant: .default, matching: nil) } == 0, "no account created")
                let replay = try await api.completeRedirect(link: link, sessionID: "test-1")
                #expect(replay.errorCode == "INVALID_IDP_RESPONSE" || replay.errorCode == "MISSING_OR_INVALID_NONCE", "\(replay.text)")

                // After a real sign-in created the account, a test names it.
                let real = try await webLink(api, sessionID: "app-1")
                let signedIn = try await api.completeRedirect(link: real, sessionID: "app-1")
                let localID = try #require(signedIn.string("localId"), "\(signedIn.text)")
                let again = try await flows.testProviderSignIn(requestUri: try await webLink(api, sessionID: "test-2"), sessionID: "test-2")
                #expect(again.localID == localID)
            }
        }
    }
}
