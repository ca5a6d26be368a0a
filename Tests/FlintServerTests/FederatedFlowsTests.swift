import FlintCore
import FlintServerTestSupport
import FlintTesting
import Foundation
import HTTPTypes
import Testing

@testable import FlintServer

@Suite("Federated sign-in: the OIDC code flow and Google access tokens")
struct FederatedFlowsTests {
    /// An OIDC ID token of the stand-in issuer for `corp-client`.
    static func corpToken(_ api: API, _ issuer: StandInIssuer, nonce: String? = nil) throws -> String {
        let now = api.clock.now().secondsSince1970
        var claims: [String: JSONValue] = [
            "iss": .string(issuer.issuer), "aud": "corp-client", "sub": "emp-9", "iat": .number(Double(now)), "exp": .number(Double(now + 300)),
            "email": "lin@corp.example", "email_verified": true,
        ]
        if let nonce { claims["nonce"] = .string(nonce) }
        return try issuer.token(claims)
    }

    @Test("an authorization code is exchanged at the issuer's token endpoint with the client secret and the PKCE verifier")
    func codeFlow() async throws {
        try await withIdentityProviders { api, issuer in
            issuer.answerCode(with: try Self.corpToken(api, issuer, nonce: "sdk-chosen"))
            let reply = try await api.signInWithIdp([("providerId", "oidc.corp"), ("code", "good-code"), ("code_verifier", "v3rifier")])
            #expect(reply.status == .ok, "\(reply.text)")
            #expect(reply.string("federatedId") == "emp-9")
            #expect(reply.string("oauthAccessToken") == "oidc-access")
            #expect(reply["isNewUser"] == .bool(true))
            let request = try #require(issuer.tokenRequests.last)
            #expect(request.body.contains("grant_type=authorization_code"))
            #expect(request.body.contains("redirect_uri=http%3A%2F%2Flocalhost"))
            #expect(request.body.contains("code_verifier=v3rifier"))
            #expect(!request.body.contains("corp-secret"))
            #expect(request.authorization == "Basic " + ProviderKeys.base64(Array("corp-client:corp-secret".utf8)))
            let refused = try await api.signInWithIdp([("providerId", "oidc.corp"), ("code", "bad-code")])
            #expect(refused.errorCode == "INVALID_IDP_RESPONSE", "\(refused.text)")
            // Apple and Google take ID tokens (Google also access tokens), not codes.
            let apple = try await api.signInWithIdp([("providerId", "apple.com"), ("code", "good-code")])
            #expect(apple.errorCode == "INVALID_IDP_RESPONSE", "\(apple.text)")
        }
    }

    @Test("a Google access token is accepted when Google says it was issued to the project's client")
    func googleAccessToken() async throws {
        try await withIdentityProviders { api, issuer in
            let user: JSONValue = [
                "sub": "1093", "email": "ada@gmail.com", "email_verified": true, "name": "Ada Lovelace", "picture": "https://example.com/a.png",
            ]
            issuer.knowAccessToken("ya29.good", info: ["aud": .string(googleClientID), "azp": .string(googleClientID), "sub": "1093"], user: user)
            issuer.knowAccessToken("ya29.other", info: ["aud": "someone-else", "azp": "someone-else", "sub": "1093"], user: user)
            let reply = try await api.signInWithIdp([("providerId", "google.com"), ("access_token", "ya29.good")])
            #expect(reply.status == .ok, "\(reply.text)")
            #expect(reply.string("federatedId") == "https://accounts.google.com/1093")
            #expect(reply.string("displayName") == "Ada Lovelace")
            #expect(reply.string("oauthAccessToken") == "ya29.good")
            let other = try await api.signInWithIdp([("providerId", "google.com"), ("access_token", "ya29.other")])
            #expect(other.errorCode == "INVALID_IDP_RESPONSE", "\(other.text)")
            let unknown = try await api.signInWithIdp([("providerId", "google.com"), ("access_token", "ya29.unknown")])
            #expect(unknown.errorCode == "INVALID_IDP_RESPONSE", "\(unknown.text)")
            let apple = try await api.signInWithIdp([("providerId", "apple.com"), ("access_token", "ya29.good")])
            #expect(apple.errorCode == "INVALID_IDP_RESPONSE", "\(apple.text)")
        }
    }
}
