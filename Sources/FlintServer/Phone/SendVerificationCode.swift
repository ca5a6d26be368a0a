import FlintCore
import FlintStore
import FlintTexts
import HTTPTypes
import Hummingbird

/// `accounts:sendVerificationCode` (v1) and `relyingparty/sendVerificationCode` (the iOS SDK's v3 path). The same
/// fields make MFA's `phoneEnrollmentInfo` and `phoneSignInInfo`.
struct SendVerificationCodeRequest: Decodable {
    /// The number to send a code to, in E.164 (spaces and dashes tolerated).
    var phoneNumber: String?
    /// The app proof (`iosReceipt` + `iosSecret`, or `recaptchaToken`, beside the number); `clientType`,
    /// `recaptchaVersion` and the proofs of other platforms are ignored.
    var proof: AppProof

    private enum CodingKeys: CodingKey { case phoneNumber }

    init(from decoder: any Decoder) throws {
        phoneNumber = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(String.self, forKey: .phoneNumber)
        proof = try AppProof(from: decoder)
    }
}

/// The answer: the opaque handle the client keeps as its verification ID.
struct SendVerificationCodeResponse: ResponseEncodable {
    var sessionInfo: String
}

extension PhoneCodes {
    /// Texts a sign-in code to the number, in the first of `locales` there is a template for.
    func sendVerificationCode(
        _ wire: SendVerificationCodeRequest, locales: [String], clientIP: String?
    ) async throws -> SendVerificationCodeResponse {
        let sessionInfo = try await sendCode(to: wire.phoneNumber, purpose: .signIn, locales: locales, proof: wire.proof, clientIP: clientIP)
        return SendVerificationCodeResponse(sessionInfo: sessionInfo)
    }
}
