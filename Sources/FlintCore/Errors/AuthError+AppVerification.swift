/// App-verification errors, with the codes FirebaseAuth maps (`missingAppCredential`, `invalidAppCredential`,
/// `missingAppToken`, `captchaCheckFailed`).
extension AuthError {
    /// No proof came with a code request for a real number while the project enforces app verification.
    package static let missingAppCredential = AuthError(
        code: "MISSING_APP_CREDENTIAL",
        detail: "App verification is required: send iosReceipt and iosSecret (from verifyClient and its push) or a recaptchaToken.")
    /// A receipt and secret that do not match, are expired, used up, or for another project.
    package static let invalidAppCredential = AuthError(code: "INVALID_APP_CREDENTIAL")
    /// `verifyClient` without `appToken`.
    package static let missingAppToken = AuthError(code: "MISSING_IOS_APP_TOKEN")
    /// A `recaptchaToken` that is not one of Flint's, expired, already used, or for another project. FirebaseAuth
    /// maps this code (not `INVALID_RECAPTCHA_TOKEN`, which it reports as an internal error).
    package static let captchaCheckFailed = AuthError(code: "CAPTCHA_CHECK_FAILED")
    /// `recaptchaConfig` without `clientType`.
    package static let missingClientType = AuthError(code: "MISSING_CLIENT_TYPE")
    /// `recaptchaConfig` without `version`.
    package static let missingRecaptchaVersion = AuthError(code: "MISSING_RECAPTCHA_VERSION")
}
