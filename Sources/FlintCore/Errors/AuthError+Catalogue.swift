/// Firebase's error strings, exactly as the emulator and production answer them.
extension AuthError {
    // MARK: Phone sign-in
    public static let invalidPhoneNumber = AuthError(code: "INVALID_PHONE_NUMBER", detail: "Invalid format.")
    public static let missingPhoneNumber = AuthError(code: "MISSING_PHONE_NUMBER")
    public static let missingSessionInfo = AuthError(code: "MISSING_SESSION_INFO")
    public static let missingCode = AuthError(code: "MISSING_CODE")
    public static let invalidSessionInfo = AuthError(code: "INVALID_SESSION_INFO")
    public static let invalidCode = AuthError(code: "INVALID_CODE")
    public static let sessionExpired = AuthError(code: "SESSION_EXPIRED")
    public static let invalidTemporaryProof = AuthError(code: "INVALID_TEMPORARY_PROOF")
    public static let phoneNumberExists = AuthError(code: "PHONE_NUMBER_EXISTS")
    public static let tooManyAttempts = AuthError(code: "TOO_MANY_ATTEMPTS_TRY_LATER")
    /// The project's texts of the day are used up (`flint.smsLimits.dailyBudget`), in Firebase's words.
    public static let smsQuotaExceeded = AuthError(code: "QUOTA_EXCEEDED", detail: "Exceeded quota for sending verification codes.")
    public static let operationNotAllowed = AuthError(code: "OPERATION_NOT_ALLOWED")
    /// A code for a number whose region the project's `smsRegionConfig` does not allow (Firebase's wording).
    public static let smsRegionNotAllowed = AuthError(
        code: "OPERATION_NOT_ALLOWED", detail: "SMS unable to be sent until this region enabled by the app developer.")
    public static let unsupportedFirstFactor = AuthError(
        code: "UNSUPPORTED_FIRST_FACTOR",
        detail: "A phone number cannot be set as a first factor on an SMS based MFA user."
    )

    // MARK: Tokens and accounts
    public static let missingIDToken = AuthError(code: "MISSING_ID_TOKEN")
    public static let invalidIDToken = AuthError(code: "INVALID_ID_TOKEN")
    public static let tokenExpired = AuthError(code: "TOKEN_EXPIRED")
    public static let userNotFound = AuthError(code: "USER_NOT_FOUND")
    public static let userDisabled = AuthError(code: "USER_DISABLED")
    public static let missingLocalID = AuthError(code: "MISSING_LOCAL_ID")
    public static let missingGrantType = AuthError(code: "MISSING_GRANT_TYPE")
    public static let invalidGrantType = AuthError(code: "INVALID_GRANT_TYPE")
    public static let missingRefreshToken = AuthError(code: "MISSING_REFRESH_TOKEN")
    public static let invalidRefreshToken = AuthError(code: "INVALID_REFRESH_TOKEN")

    // MARK: Request shape, credentials, project
    public static let missingAPIKey = AuthError(
        status: 403,
        code: "The request is missing a valid API key.",
        reason: "forbidden",
        rpcStatus: "PERMISSION_DENIED"
    )
    public static let invalidAPIKey = AuthError(
        status: 400,
        code: "API key not valid. Please pass a valid API key.",
        reason: "keyInvalid",
        rpcStatus: "INVALID_ARGUMENT"
    )
    public static let unauthenticated = AuthError(
        status: 401,
        code:
            "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.",
        reason: "authError",
        rpcStatus: "UNAUTHENTICATED"
    )
    public static let insufficientPermission = AuthError(
        status: 403,
        code: "INSUFFICIENT_PERMISSION",
        reason: "forbidden",
        rpcStatus: "PERMISSION_DENIED"
    )
    public static let notFound = AuthError(status: 404, code: "Not Found", reason: "notFound", rpcStatus: "NOT_FOUND")
    public static let payloadTooLarge = AuthError(
        status: 413,
        code: "Request payload size exceeds the limit: 1048576 bytes.",
        reason: "badRequest",
        rpcStatus: "INVALID_ARGUMENT"
    )
    public static let internalError = AuthError(status: 500, code: "INTERNAL_ERROR", reason: "backendError", rpcStatus: "INTERNAL")
    public static let projectNotFound = AuthError(status: 404, code: "PROJECT_NOT_FOUND", reason: "notFound", rpcStatus: "NOT_FOUND")

    /// Firebase's answer to unparsable JSON or a field of the wrong type.
    public static func invalidJSON(_ detail: String) -> AuthError {
        AuthError(code: "Invalid JSON payload received. \(detail)", reason: "invalid", rpcStatus: "INVALID_ARGUMENT")
    }

    /// Firebase's `INVALID_ARGUMENT` with a detail, used for config validation.
    public static func invalidArgument(_ detail: String) -> AuthError {
        AuthError(code: "INVALID_ARGUMENT", detail: detail, rpcStatus: "INVALID_ARGUMENT")
    }
}

/// Email link, password and out-of-band code errors.
extension AuthError {
    public static let missingEmail = AuthError(code: "MISSING_EMAIL")
    public static let invalidEmail = AuthError(code: "INVALID_EMAIL")
    /// `VERIFY_AND_CHANGE_EMAIL` without `newEmail`.
    public static let missingNewEmail = AuthError(code: "MISSING_NEW_EMAIL")
    /// `VERIFY_AND_CHANGE_EMAIL` with a `newEmail` that is not an email address.
    public static let invalidNewEmail = AuthError(code: "INVALID_NEW_EMAIL")
    public static let emailMismatch = AuthError(code: "INVALID_EMAIL", detail: "The email provided does not match the sign-in email address.")
    public static let emailExists = AuthError(code: "EMAIL_EXISTS")
    public static let emailNotFound = AuthError(code: "EMAIL_NOT_FOUND")
    public static let missingPassword = AuthError(code: "MISSING_PASSWORD")
    public static let invalidLoginCredentials = AuthError(code: "INVALID_LOGIN_CREDENTIALS")
    public static let passwordLoginDisabled = AuthError(code: "PASSWORD_LOGIN_DISABLED")
    public static let weakPassword = AuthError(code: "WEAK_PASSWORD", detail: "Password should be at least 6 characters")
    public static let missingOobCode = AuthError(code: "MISSING_OOB_CODE")
    public static let invalidOobCode = AuthError(code: "INVALID_OOB_CODE")
    public static let expiredOobCode = AuthError(code: "EXPIRED_OOB_CODE")
    public static let missingRequestType = AuthError(code: "MISSING_REQ_TYPE")
    public static let invalidRequestType = AuthError(code: "INVALID_REQ_TYPE", detail: "Unsupported request parameters.")
    public static let invalidContinueURI = AuthError(
        code: "INVALID_CONTINUE_URI", detail: "((expected an absolute URI with valid scheme and host))")
    public static let missingContinueURI = AuthError(code: "MISSING_CONTINUE_URI")
    public static let unauthorizedDomain = AuthError(code: "UNAUTHORIZED_DOMAIN", detail: "Domain not allowlisted by project")
    public static let missingIdentifier = AuthError(code: "MISSING_IDENTIFIER")
    public static let invalidIdentifier = AuthError(code: "INVALID_IDENTIFIER")
    /// `createAuthUri` with a `providerId` the server does not serve.
    public static let invalidProviderID = AuthError(code: "INVALID_PROVIDER_ID", detail: "Provider Id is not supported.")
    public static let invalidDynamicLinkDomain = AuthError(code: "INVALID_DYNAMIC_LINK_DOMAIN")
    public static let invalidHostingLinkDomain = AuthError(code: "INVALID_HOSTING_LINK_DOMAIN")
    public static let missingAndroidPackageName = AuthError(code: "MISSING_ANDROID_PACKAGE_NAME")
    public static let missingIOSBundleID = AuthError(code: "MISSING_IOS_BUNDLE_ID")
    public static let credentialTooOld = AuthError(code: "CREDENTIAL_TOO_OLD_LOGIN_AGAIN")
}
