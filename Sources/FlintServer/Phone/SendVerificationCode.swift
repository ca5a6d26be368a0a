import FlintCore
import FlintStore
import HTTPTypes
import Hummingbird

/// `accounts:sendVerificationCode` (v1) and `relyingparty/sendVerificationCode` (the iOS SDK's v3 path).
struct SendVerificationCodeRequest {
    /// The number to send a code to, in E.164 (spaces and dashes tolerated).
    var phoneNumber: String?
    /// The app proof (`iosReceipt` + `iosSecret`, or `recaptchaToken`); `clientType`, `recaptchaVersion` and the
    /// proofs of other platforms are ignored.
    var proof: AppProof

    init(_ body: WireBody) throws(AuthError) {
        phoneNumber = try body.string("phoneNumber")
        proof = try AppProof(body)
    }
}

/// The answer: the opaque handle the client keeps as its verification ID.
struct SendVerificationCodeResponse: Encodable {
    var sessionInfo: String
}

extension PhoneRoutes {
    func sendVerificationCode(_ request: Request, context: FlintRequestContext) async throws -> Response {
        try context.requireClient()
        let wire = try SendVerificationCodeRequest(try await WireBody.read(request))
        let locales = LocaleNegotiation.candidates(
            firebaseLocale: request.headers[.firebaseLocale], acceptLanguage: request.headers[.acceptLanguage]
        )
        let sessionInfo = try await services.sendCode(to: wire.phoneNumber, purpose: .signIn, locales: locales, proof: wire.proof)
        return try JSONReply.make(SendVerificationCodeResponse(sessionInfo: sessionInfo))
    }
}

extension HTTPField.Name {
    /// `X-Firebase-Locale`, the client's `languageCode`.
    static let firebaseLocale = HTTPField.Name("X-Firebase-Locale")!
}
