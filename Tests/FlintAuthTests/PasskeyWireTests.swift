import Foundation
import Testing

@testable import FlintAuth

/// The passkey bodies FlintAuth sends and the answers it reads: FirebaseAuth's passkey API's members and encodings.
@Suite("Passkey wire shapes")
struct PasskeyWireTests {
    private static func object(_ value: some Encodable) throws -> NSDictionary {
        let data = try JSONEncoder().encode(value)
        return try #require(try JSONSerialization.jsonObject(with: data) as? NSDictionary)
    }

    @Test("the finalize bodies nest the authenticator's bytes as FirebaseAuth does, in standard base64")
    func finalizeBodies() throws {
        let enrol = FinalizePasskeyEnrollmentRequest(
            idToken: "id", name: "Laptop",
            authenticatorRegistrationResponse: .init(
                id: Data([0xfb, 0xff]).base64EncodedString(), response: .init(clientDataJSON: "Y2Q=", attestationObject: "YW8=")))
        #expect(
            try Self.object(enrol)
                == [
                    "idToken": "id", "name": "Laptop",
                    "authenticatorRegistrationResponse": ["id": "+/8=", "response": ["clientDataJSON": "Y2Q=", "attestationObject": "YW8="]],
                ] as NSDictionary)
        let signIn = FinalizePasskeySignInRequest(
            authenticatorAuthenticationResponse: .init(
                id: "aWQ=", response: .init(clientDataJSON: "Y2Q=", authenticatorData: "YWQ=", signature: "c2c=", userHandle: "dWlk")))
        #expect(
            try Self.object(signIn)
                == [
                    "authenticatorAuthenticationResponse": [
                        "id": "aWQ=",
                        "response": ["clientDataJSON": "Y2Q=", "authenticatorData": "YWQ=", "signature": "c2c=", "userHandle": "dWlk"],
                    ]
                ] as NSDictionary)
        #expect(try Self.object(StartPasskeySignInRequest()) == [:] as NSDictionary)
        #expect(
            try Self.object(SetAccountInfoRequest(idToken: "id", deletePasskey: ["k1"]))
                == ["idToken": "id", "deletePasskey": ["k1"], "returnSecureToken": true] as NSDictionary)
    }

    @Test("the start answers' bytes are read in standard base64 (as Google writes them) or base64url, padded or not")
    func startAnswers() throws {
        #expect(PasskeyBase64.decode("+/8=") == Data([0xfb, 0xff]))
        #expect(PasskeyBase64.decode("-_8") == Data([0xfb, 0xff]))
        #expect(PasskeyBase64.decode("dWlk") == Data("uid".utf8))
        #expect(PasskeyBase64.decode("not base64!") == nil)
        #expect(PasskeyBase64.decode("") == nil)
        let json = #"{"credentialCreationOptions":{"challenge":"AAEC","rp":{"id":"example.com","name":"p"},"user":{"id":"dWlk"}}}"#
        let answer = try JSONDecoder().decode(StartPasskeyEnrollmentResponse.self, from: Data(json.utf8))
        #expect(answer.credentialCreationOptions?.rp?.id == "example.com")
        #expect(PasskeyBase64.decode(answer.credentialCreationOptions?.challenge) == Data([0, 1, 2]))
        #expect(throws: NSError.self) { try PasskeyBase64.required(nil, "challenge") }
    }

    @Test("the server's passkey errors map to FirebaseAuth's codes and names")
    func errors() {
        #expect(AuthErrorCode(serverMessage: "PASSKEY_ENROLLMENT_NOT_FOUND") == .missingPasskeyEnrollment)
        #expect(AuthErrorCode(serverMessage: "INVALID_AUTHENTICATOR_RESPONSE") == .invalidAuthenticatorResponse)
        #expect(AuthErrorCode(serverMessage: "PASSKEY_ENROLLMENT_EXISTS") == nil, "FirebaseAuth reports it as internalError")
        #expect(AuthErrorCode.missingPasskeyEnrollment.errorName == "ERROR_PASSKEY_ENROLLMENT_NOT_FOUND")
        #expect(AuthErrorCode.invalidAuthenticatorResponse.errorName == "ERROR_INVALID_AUTHENTICATOR_RESPONSE")
        #expect(AuthErrorCode.missingPasskeyEnrollment.rawValue == 17212)
    }
}
