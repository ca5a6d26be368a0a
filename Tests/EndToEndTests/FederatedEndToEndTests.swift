import AsyncHTTPClient
import FlintAuthTestSupport
import FlintTesting
import Foundation
import JWTKit
import Testing

/// A Google ID token's claims, as the stand-in signs them.
private struct GoogleClaims: JWTPayload {
    let iss: IssuerClaim
    let aud: AudienceClaim
    let sub: SubjectClaim
    let exp: ExpirationClaim
    let iat: IssuedAtClaim
    let email: String
    let email_verified: Bool

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

@Suite("End to end: federated sign-in")
struct FederatedEndToEndTests {
    @Test("flint serve --idp-stand-in: Google's keys from a stand-in, the provider from --config, an ES256 ID token signs in")
    func googleStandIn() async throws {
        let key = ES256PrivateKey()
        let parameters = try #require(key.parameters)
        let jwks = #"{"keys":[{"kty":"EC","crv":"P-256","kid":"e2e-1","use":"sig","x":"\#(parameters.x)","y":"\#(parameters.y)"}]}"#
        let google = try ScriptedHTTPServer(script: [.status(200, jwks)])
        defer { google.stop() }
        let client = HTTPClient.shared
        let data = temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let file = data + ".yaml"
        try "defaultSupportedIdpConfigs: {google.com: {enabled: true, clientId: e2e.apps.googleusercontent.com}}"
            .write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let server = try await FlintProcess(
            dataDirectory: data, extraArguments: ["--config", file, "--idp-stand-in", "google.com=http://127.0.0.1:\(google.port)"])
        defer { server.terminate() }

        let now = Date()
        let claims = GoogleClaims(
            iss: "https://accounts.google.com", aud: "e2e.apps.googleusercontent.com", sub: "e2e-sub", exp: .init(value: now + 600),
            iat: .init(value: now), email: "e2e@gmail.com", email_verified: true)
        let keys = JWTKeyCollection()
        await keys.add(ecdsa: key, kid: "e2e-1")
        let idToken = try await keys.sign(claims, kid: "e2e-1")
        let (status, answer) = try await postJSON(
            client, server.base + "/identitytoolkit.googleapis.com/v1/accounts:signInWithIdp?key=k",
            ["requestUri": "http://localhost", "postBody": "providerId=google.com&id_token=\(idToken)"])
        #expect(status == 200, "\(answer)")
        #expect(answer["federatedId"] as? String == "https://accounts.google.com/e2e-sub")
        #expect(answer["isNewUser"] as? Bool == true)
        #expect(answer["idToken"] is String)
        #expect(google.requestLines == ["GET /oauth2/v3/certs HTTP/1.1"])
    }
}
