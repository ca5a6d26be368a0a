import Foundation
import Testing

@testable import FlintAuth

/// The JSON the SDK sends and reads for the bodies that share parts: exactly FirebaseAuth's members, no more.
@Suite("Wire shapes")
struct WireShapeTests {
    private static func object(_ value: some Encodable) throws -> NSDictionary {
        let data = try JSONEncoder().encode(value)
        return try #require(try JSONSerialization.jsonObject(with: data) as? NSDictionary)
    }

    @Test("sendVerificationCode: the number, the proof's members beside it, and clientType")
    func sendVerificationCode() throws {
        let receipt = PhoneCodeRequest.sendVerificationCode(phoneNumber: "+15555550100", proof: .credential(AppCredential(receipt: "r", secret: "s")))
        #expect(
            try Self.object(receipt)
                == ["phoneNumber": "+15555550100", "iosReceipt": "r", "iosSecret": "s", "clientType": "CLIENT_TYPE_IOS"] as NSDictionary)
        let token = PhoneCodeRequest.sendVerificationCode(phoneNumber: "+15555550100", proof: .token("t"))
        #expect(try Self.object(token) == ["phoneNumber": "+15555550100", "recaptchaToken": "t", "clientType": "CLIENT_TYPE_IOS"] as NSDictionary)
        let bare = PhoneCodeRequest.sendVerificationCode(phoneNumber: "+15555550100", proof: nil)
        #expect(try Self.object(bare) == ["phoneNumber": "+15555550100", "clientType": "CLIENT_TYPE_IOS"] as NSDictionary)
    }

    @Test("the second-factor starts nest the number and proof, without clientType")
    func secondFactorStarts() throws {
        let enrollment = StartMFARequest(
            idToken: "id", phoneEnrollmentInfo: PhoneCodeRequest(phoneNumber: "+15555550100", proof: .token("t")))
        #expect(
            try Self.object(enrollment)
                == ["idToken": "id", "phoneEnrollmentInfo": ["phoneNumber": "+15555550100", "recaptchaToken": "t"]] as NSDictionary)
        let signIn = StartMFARequest(
            mfaPendingCredential: "p", mfaEnrollmentId: "e1",
            phoneSignInInfo: PhoneCodeRequest(phoneNumber: "+15555550100", proof: .credential(AppCredential(receipt: "r", secret: "s"))))
        #expect(
            try Self.object(signIn)
                == [
                    "mfaPendingCredential": "p", "mfaEnrollmentId": "e1",
                    "phoneSignInInfo": ["phoneNumber": "+15555550100", "iosReceipt": "r", "iosSecret": "s"],
                ] as NSDictionary)
    }

    @Test("the code session is read from each answer; an empty one is internalError")
    func codeSessions() throws {
        let decoder = JSONDecoder()
        let sent = try decoder.decode(PhoneCodeSession.self, from: Data(#"{"sessionInfo":"s1"}"#.utf8))
        #expect(try PhoneCodeSession.verificationID(of: sent, orFailWith: "none") == "s1")
        let enrollment = try decoder.decode(StartMFAEnrollmentResponse.self, from: Data(#"{"phoneSessionInfo":{"sessionInfo":"s2"}}"#.utf8))
        #expect(try PhoneCodeSession.verificationID(of: enrollment.phoneSessionInfo, orFailWith: "none") == "s2")
        let signIn = try decoder.decode(StartMFASignInResponse.self, from: Data(#"{"phoneResponseInfo":{"sessionInfo":"s3"}}"#.utf8))
        #expect(try PhoneCodeSession.verificationID(of: signIn.phoneResponseInfo, orFailWith: "none") == "s3")
        #expect(throws: NSError.self) { try PhoneCodeSession.verificationID(of: nil, orFailWith: "none") }
        #expect(throws: NSError.self) { try PhoneCodeSession.verificationID(of: PhoneCodeSession(sessionInfo: ""), orFailWith: "none") }
    }

    @Test("a second-factor finalize answer gives the sign-in tokens and the recovery codes")
    func mfaTokens() throws {
        let json = #"{"idToken":"i","refreshToken":"r","expiresIn":"3600","recoveryCodes":["a","b"]}"#
        let response = try JSONDecoder().decode(MFATokensResponse.self, from: Data(json.utf8))
        #expect(response.tokens.idToken == "i")
        #expect(response.tokens.refreshToken == "r")
        #expect(response.tokens.expiresIn == "3600")
        #expect(response.extra.recoveryCodes == ["a", "b"])
        let later = try JSONDecoder().decode(MFATokensResponse.self, from: Data(#"{"idToken":"i","refreshToken":"r"}"#.utf8))
        #expect(later.extra.recoveryCodes == nil)
        #expect(later.tokens.idToken == "i")
    }
}
