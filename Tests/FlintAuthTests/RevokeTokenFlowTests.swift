import Crypto
import FlintAuthTestSupport
import FlintCore
import FlintTesting
import Foundation
import Testing

@testable import FlintAuth

/// `Auth.revokeToken(withAuthorizationCode:)` against `flint serve`, whose Apple is a scripted stand-in on loopback
/// (`--idp-stand-in`): its keys for the sign-in, then its token endpoint's answer for the code and its revocation
/// endpoint's.
@Suite("Sign in with Apple token revocation against flint serve")
struct RevokeTokenFlowTests {
    @Test("the authorization code reaches Apple's token endpoint and its refresh token is revoked; Apple's refusal is invalidCredential")
    func revokeWithAuthorizationCode() async throws {
        let key = try SigningKey.generate(now: Instant(Date()), random: SystemRandom())
        let jwks = String(
            decoding: JSONValue.object(["keys": .array([.object(try key.jwk().mapValues(JSONValue.string))])]).serialized(), as: UTF8.self)
        let now = Int(Date().timeIntervalSince1970)
        let exchanged = try OAuthFlowTests.token(
            [
                "iss": "https://appleid.apple.com", "aud": .string(OAuthFlowTests.bundleID), "sub": "007.apple", "iat": .number(Double(now)),
                "exp": .number(Double(now + 600)),
            ], key: key)
        let tokenAnswer = String(
            decoding: JSONValue.object([
                "access_token": "apple-access", "token_type": "Bearer", "refresh_token": "apple-refresh", "id_token": .string(exchanged),
            ]).serialized(), as: UTF8.self)
        let standIn = try ScriptedHTTPServer(script: [
            .status(200, jwks), .status(200, tokenAnswer), .status(200, ""), .status(400, #"{"error":"invalid_grant"}"#),
        ])
        defer { standIn.stop() }
        try await withFlint(extraArguments: ["--idp-stand-in", "apple.com=http://127.0.0.1:\(standIn.port)"]) { server in
            let p8 = P256.Signing.PrivateKey().pemRepresentation
            let body: JSONValue = [
                "enabled": true, "clientId": .string(OAuthFlowTests.bundleID),
                "appleSignInConfig": ["codeFlowConfig": ["teamId": "TEAM123456", "keyId": "KEY7654321", "privateKey": .string(p8)]],
            ]
            let (status, data) = try await server.send(
                "POST", "/identitytoolkit.googleapis.com/v2/projects/demo-flint/defaultSupportedIdpConfigs?idpId=apple.com",
                body: Data(body.serialized()), headers: ["Authorization": "Bearer owner"])
            #expect(status == 200, "\(String(decoding: data, as: UTF8.self))")
            let auth = server.makeAuth()
            // Without a signed-in user, as FirebaseAuth: nothing is sent.
            try await auth.revokeToken(withAuthorizationCode: "unused")
            let relay = "r\(UUID().uuidString.prefix(6).lowercased())@privaterelay.appleid.com"
            _ = try await auth.signIn(
                with: OAuthProvider.appleCredential(
                    withIDToken: try OAuthFlowTests.appleToken(sub: "007.apple", email: relay, rawNonce: "raw", key: key), rawNonce: "raw",
                    fullName: nil))
            try await auth.revokeToken(withAuthorizationCode: "c0de")
            let bodies = standIn.requestBodies
            #expect(standIn.requestLines.dropFirst().first?.hasPrefix("POST /auth/token") == true, "\(standIn.requestLines)")
            #expect(bodies.count >= 3 && bodies[1].contains("code=c0de") && bodies[1].contains("grant_type=authorization_code"))
            #expect(standIn.requestLines.dropFirst(2).first?.hasPrefix("POST /auth/revoke") == true, "\(standIn.requestLines)")
            #expect(bodies.count >= 3 && bodies[2].contains("token=apple-refresh") && bodies[2].contains("token_type_hint=refresh_token"))
            // Apple refusing the next code: the completion form reports invalidCredential.
            let error: (any Error)? = await withCheckedContinuation { continuation in
                auth.revokeToken(withAuthorizationCode: "stale") { continuation.resume(returning: $0) }
            }
            #expect((error as NSError?)?.code == AuthErrorCode.invalidCredential.rawValue, "\(String(describing: error))")
        }
    }
}
