import FlintCore
import FlintServerTestSupport
import FlintTesting
import Foundation
import HTTPTypes
import Testing

@Suite("Passkeys: counterless authenticators and the REST reference's wire shapes")
struct PasskeyWireShapeTests {
    @Test("an authenticator without a counter (always 0) signs in again and again")
    func counterless() async throws {
        try await withFlint { api in
            let user = try await api.signIn("+16505550111")
            var authenticator = SoftwareAuthenticator()
            #expect(try await api.enrollPasskey(user.idToken, authenticator).status == .ok)
            for _ in 0..<3 { #expect(try await api.signInWithPasskey(&authenticator, keepCounter: true).status == .ok) }
        }
    }

    @Test("the REST reference's field names (credentialId, authenticatorAttestationResponse, clientDataJson) and standard base64 are read too")
    func restFieldNames() async throws {
        try await withFlint { api in
            let user = try await api.signIn("+16505550112")
            var authenticator = SoftwareAuthenticator()
            let challenge = try await api.passkeyEnrollmentChallenge(user.idToken)
            let (client, object) = try authenticator.register(rpID: "localhost", challenge: challenge, origin: passkeyOrigin)
            let enrolled = try await api.postJSON(
                Path.passkeyEnrollFinalize,
                [
                    "idToken": user.idToken, "displayName": "Phone",
                    "authenticatorRegistrationResponse": [
                        "credentialId": Data(authenticator.credentialID).base64EncodedString(), "credentialType": "public-key",
                        "authenticatorAttestationResponse": [
                            "clientDataJson": Data(client).base64EncodedString(), "attestationObject": Data(object).base64EncodedString(),
                        ],
                    ] as [String: Any],
                ])
            #expect(enrolled.status == .ok, "\(enrolled.text)")
            let token = try #require(enrolled.string("idToken"))
            let account = try #require(try await api.lookup(token)["users"]?.arrayValue?.first)
            #expect(account["passkeyInfo"]?.arrayValue?.first?["name"]?.stringValue == "Phone")
            let signInChallenge = try await api.passkeySignInChallenge()
            let assertion = try authenticator.assert(rpID: "localhost", challenge: signInChallenge, origin: passkeyOrigin)
            let signedIn = try await api.postJSON(
                Path.passkeySignInFinalize,
                [
                    "authenticatorAuthenticationResponse": [
                        "credentialId": Data(authenticator.credentialID).base64EncodedString(),
                        "authenticatorAssertionResponse": [
                            "clientDataJson": Data(assertion.clientDataJSON).base64EncodedString(),
                            "authenticatorData": Data(assertion.authenticatorData).base64EncodedString(),
                            "signature": Data(assertion.signature).base64EncodedString(),
                        ],
                    ] as [String: Any]
                ])
            #expect(signedIn.status == .ok, "\(signedIn.text)")
        }
    }

    @Test("an RS256 credential enrols (packed self attestation) and signs in", arguments: [SoftwareAuthenticator.Format.none, .packedSelf])
    func rs256(format: SoftwareAuthenticator.Format) async throws {
        try await withFlint { api in
            let user = try await api.signIn("+16505550113")
            var authenticator = try SoftwareAuthenticator.rs256()
            let enrolled = try await api.enrollPasskey(user.idToken, authenticator, format: format)
            #expect(enrolled.status == .ok, "\(enrolled.text)")
            #expect(try await api.signInWithPasskey(&authenticator).status == .ok)
        }
    }
}
