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

extension PhoneRoutes {
    func sendVerificationCode(_ request: Request, context: FlintRequestContext) async throws -> SendVerificationCodeResponse {
        let wire = try await context.clientBody(request, as: SendVerificationCodeRequest.self)
        let locales = request.answerLocales
        let sessionInfo = try await codes.sendCode(
            to: wire.phoneNumber, purpose: .signIn, locales: locales, proof: wire.proof, clientIP: context.clientIP)
        return SendVerificationCodeResponse(sessionInfo: sessionInfo)
    }
}
