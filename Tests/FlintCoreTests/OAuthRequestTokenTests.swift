import FlintCore
import Testing

@Suite("OAuth 1.0a request tokens kept by the browser")
struct OAuthRequestTokenTests {
    let now = Instant(secondsSince1970: 1_700_000_000)
    let secret = ServerSecret(master: Array(repeating: 7, count: 32))

    @Test("it opens to what was sealed until it expires, under its own key and kind only")
    func sealAndOpen() throws {
        let token = OAuthRequestToken(token: "req-1", secret: "req-secret", expiresAt: now + .seconds(900))
        let text = try token.seal(key: secret.idpKey)
        #expect(OAuthRequestToken(opening: text, key: secret.idpKey, now: now + .seconds(899)) == token)
        #expect(OAuthRequestToken(opening: text, key: secret.idpKey, now: now + .seconds(900)) == nil)
        #expect(OAuthRequestToken(opening: text, key: secret.mfaKey, now: now) == nil)
        let state = try RedirectState(
            providerID: "twitter.com", sessionHash: "", eventID: "E", authType: "signInWithRedirect", target: .app(scheme: "s"),
            random: SystemRandom(), now: now
        ).seal(key: secret.idpKey)
        #expect(OAuthRequestToken(opening: state, key: secret.idpKey, now: now) == nil)
    }
}
