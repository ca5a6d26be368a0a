import FlintCore
import FlintServerTestSupport
import FlintTesting
import HTTPTypes
import Testing

@testable import FlintServer

@Suite("signInWithIdp: requestUri parameters, linking rules, profile and timestamps")
struct FederatedRequestTests {
    @Test(
        "an ID token carried in requestUri's fragment or query signs in when postBody has none",
        arguments: ["http://localhost/cb#id_token=", "http://localhost/cb?id_token=", "com.example.app:/cb#state=x&id_token="])
    func requestURIParameters(_ prefix: String) async throws {
        try await withIdentityProviders { api, issuer in
            let token = try issuer.token(googleClaims(api))
            let body: JSONValue = ["requestUri": .string(prefix + token), "postBody": "providerId=google.com", "returnSecureToken": true]
            let reply = try await api.postRaw(Path.signInWithIdp, String(decoding: body.serialized(), as: UTF8.self))
            #expect(reply.status == .ok, "\(reply.text)")
            #expect(reply.string("federatedId") == "https://accounts.google.com/1093")
            #expect(reply.string("idToken") != nil)
        }
    }

    @Test("requestUri's fragment, then its query, fill what postBody lacks; the query's code is left to the code flows")
    func requestURIFills() {
        let body = IdpPostBody(parsing: "providerId=google.com&nonce=n")
            .filled(fromRequestURI: "https://app.example/cb?id_token=q.q.q&code=c1&nonce=other#id_token=f.f.f&access_token=at")
        #expect(body.providerID == "google.com")
        #expect(body.idToken == "f.f.f")
        #expect(body.accessToken == "at")
        #expect(body.code == nil)
        #expect(body.nonce == "n")
        let kept = IdpPostBody(parsing: "id_token=p.p.p").filled(fromRequestURI: "http://localhost?id_token=q.q.q")
        #expect(kept.idToken == "p.p.p")
        #expect(IdpPostBody(parsing: "").filled(fromRequestURI: "http://localhost#code=c2").code == "c2")
    }

    @Test(
        "requestUri must be absolute",
        arguments: [
            ("http://localhost", true), ("com.example.app:/oauth2redirect", true), ("localhost", false), ("/cb", false), ("http:", false),
            ("1http://x", false), ("", false),
        ])
    func absoluteRequestURI(_ uri: String, _ absolute: Bool) {
        #expect(IdpPostBody.isAbsoluteURI(uri) == absolute)
    }

    @Test("a requestUri that is not an absolute URI is INVALID_REQUEST_URI", arguments: ["localhost", "/callback", "://x", "http:"])
    func relativeRequestURI(_ uri: String) async throws {
        try await withIdentityProviders { api, issuer in
            let token = try issuer.token(googleClaims(api))
            let body: JSONValue = ["requestUri": .string(uri), "postBody": .string("providerId=google.com&id_token=\(token)")]
            let reply = try await api.postRaw(Path.signInWithIdp, String(decoding: body.serialized(), as: UTF8.self))
            #expect(reply.status == .badRequest, "\(reply.text)")
            #expect(reply.errorCode == "INVALID_REQUEST_URI", "\(reply.text)")
        }
    }
}
