import Crypto
import FlintCore
import Foundation
import Testing

@Suite("The hosted handler's sealed redirect state")
struct RedirectStateTests {
    let now = Instant(secondsSince1970: 1_700_000_000)
    let secret = ServerSecret(master: Array(repeating: 7, count: 32))

    @Test("it opens to what was sealed, for its lifetime, under its own key and kind only")
    func sealAndOpen() throws {
        for target in [
            RedirectState.Target.app(scheme: "app-1-2-ios-3"), .web(redirectURL: "https://example.com/back?x=1"),
            .sdk(apiKey: "key-1", appName: "[DEFAULT]", redirectURL: "https://example.com/app?y=2#z"),
        ] {
            let state = RedirectState(
                providerID: "oidc.corp", sessionHash: ProviderNonceRule.sha256Hex("session"), eventID: "EVENTABCDE",
                authType: "signInWithRedirect", target: target, random: SystemRandom(), now: now)
            let text = try state.seal(key: secret.idpKey)
            #expect(try #require(RedirectState(opening: text, key: secret.idpKey, now: now + .seconds(899))) == state)
            #expect(RedirectState(opening: text, key: secret.idpKey, now: now + .seconds(900)) == nil)
            #expect(RedirectState(opening: text, key: secret.mfaKey, now: now) == nil)
            // A pending token is sealed with the same key but is another kind.
            let pending = try IdpPendingToken(providerID: "oidc.corp", profile: ProviderProfile(claims: ["sub": "1"]), now: now)
                .seal(key: secret.idpKey)
            #expect(RedirectState(opening: pending, key: secret.idpKey, now: now) == nil)
        }
    }

    @Test("a tenant's state carries its tenant, with or without the provider's data; the default tenant's is sealed as before tenants")
    func tenant() throws {
        var state = RedirectState(
            providerID: "saml.corp", sessionHash: "", eventID: "", authType: "createAuthUri", target: .web(redirectURL: "https://example.com/done"),
            tenant: "acme-x7k2q", random: SystemRandom(), now: now)
        let opened = try #require(RedirectState(opening: try state.seal(key: secret.idpKey), key: secret.idpKey, now: now))
        #expect(opened == state && opened.tenant == "acme-x7k2q" && opened.providerData.isEmpty)
        state.providerData = "common"
        #expect(try #require(RedirectState(opening: try state.seal(key: secret.idpKey), key: secret.idpKey, now: now)) == state)
        var project = state
        project.tenant = ""
        let text = try project.seal(key: secret.idpKey)
        let tenantText = try state.seal(key: secret.idpKey)
        #expect(try #require(RedirectState(opening: text, key: secret.idpKey, now: now)) == project)
        #expect(text.count < tenantText.count, "nothing is added for the default tenant")
    }

    @Test("the PKCE challenge is the S256 of the verifier, and the session must be the one it started with")
    func challengeAndSession() {
        let state = RedirectState(
            providerID: "google.com", sessionHash: ProviderNonceRule.sha256Hex("abc").uppercased(), eventID: "E", authType: "signInWithRedirect",
            target: .app(scheme: "s"), random: SystemRandom(), now: now)
        #expect(state.codeVerifier.count == 43 && state.codeVerifier != state.nonce)
        #expect(state.codeChallenge == Base64URL.encode(Array(SHA256.hash(data: Array(state.codeVerifier.utf8)))))
        #expect(state.matches(sessionID: "abc"))
        #expect(!state.matches(sessionID: "abd") && !state.matches(sessionID: nil) && !state.matches(sessionID: ""))
        var web = state
        web.sessionHash = ""
        #expect(web.matches(sessionID: nil) && web.matches(sessionID: "anything"))
    }
}
