import FlintCore
import Hummingbird

/// `GET v1/recaptchaParams` (v3: `getRecaptchaParam`): the reCAPTCHA v2 site key the Web SDK's `RecaptchaVerifier`
/// asks for before any phone sign-in; it refuses to go on without a non-empty key.
///
/// Flint holds no reCAPTCHA key, so it answers placeholders, as the Firebase emulator does. Against a dev server (app
/// verification `OFF`, the default there) whatever `recaptchaToken` the SDK's verifier then sends is accepted
/// (``AppVerifier/checkAppProof(_:)`` does not look at it). Where app verification is enforced, only a token from Flint's own web challenge passes, so a token minted with these placeholders is
/// refused with `CAPTCHA_CHECK_FAILED`.
struct RecaptchaParamsResponse: ResponseEncodable {
    var kind = "identitytoolkit#GetRecaptchaParamResponse"
    /// Not a Google reCAPTCHA key: nothing verifies tokens made with it.
    var recaptchaSiteKey = "Fake-key__Do-not-send-this-to-Recaptcha_"
    /// The legacy secure token, a placeholder too.
    var recaptchaStoken = "This-is-a-fake-token__Dont-send-this-to-the-Recaptcha-service__"
}

extension AppVerificationRoutes {
    func recaptchaParams(_ request: Request, context: FlintRequestContext) async throws -> RecaptchaParamsResponse {
        try context.requireClient()
        return RecaptchaParamsResponse()
    }
}
