import Foundation

extension Auth {
    /// Reads the project's (or `tenantID`'s) reCAPTCHA Enterprise configuration, as FirebaseAuth's
    /// `initializeRecaptchaConfig()` does (`GET v2/recaptchaConfig?clientType=CLIENT_TYPE_IOS&version=RECAPTCHA_ENTERPRISE`,
    /// with `tenantId` when a tenant is set), so a misconfiguration shows at launch rather than at the first sign-in.
    /// FlintAuth links no reCAPTCHA Enterprise SDK: where no provider enforces or audits reCAPTCHA (always on a
    /// Flint server) there is nothing to initialize and the call succeeds.
    /// - Throws: `recaptchaNotEnabled` when reCAPTCHA is on and the site key is malformed (not
    ///   `projects/…/keys/…`), `recaptchaSDKNotLinked` when it is on (FlintAuth cannot make its tokens), the request's
    ///   errors (`networkError`, `invalidAPIKey`…).
    public func initializeRecaptchaConfig() async throws {
        let config = try await backend.recaptchaConfig()
        guard config.enforcesAnyProvider else { return }
        if let key = config.recaptchaKey, key.components(separatedBy: "/").count != 4 {
            throw AuthErrorCode.recaptchaNotEnabled.error(detail: "Invalid siteKey")
        }
        throw AuthErrorCode.recaptchaSDKNotLinked.error(
            detail: "The server enforces reCAPTCHA Enterprise, and FlintAuth has no reCAPTCHA SDK to make its tokens.")
    }

    /// ``initializeRecaptchaConfig()``; `completion` gets `nil` or the error, on the main queue.
    public func initializeRecaptchaConfig(completion: (((any Error)?) -> Void)?) {
        deliver(completion) { try await self.initializeRecaptchaConfig() }
    }
}
