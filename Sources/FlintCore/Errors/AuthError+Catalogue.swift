/// Firebase's error strings, exactly as the emulator and production answer them.
extension AuthError {
    // MARK: Phone sign-in
    package static let invalidPhoneNumber = AuthError(code: "INVALID_PHONE_NUMBER", detail: "Invalid format.")
    package static let missingPhoneNumber = AuthError(code: "MISSING_PHONE_NUMBER")
    package static let missingSessionInfo = AuthError(code: "MISSING_SESSION_INFO")
    package static let missingCode = AuthError(code: "MISSING_CODE")
    package static let invalidSessionInfo = AuthError(code: "INVALID_SESSION_INFO")
    package static let invalidCode = AuthError(code: "INVALID_CODE")
    package static let sessionExpired = AuthError(code: "SESSION_EXPIRED")
    package static let invalidTemporaryProof = AuthError(code: "INVALID_TEMPORARY_PROOF")
    package static let phoneNumberExists = AuthError(code: "PHONE_NUMBER_EXISTS")
    package static let tooManyAttempts = AuthError(code: "TOO_MANY_ATTEMPTS_TRY_LATER")
    /// The project's texts of the day are used up (`flint.smsLimits.dailyBudget`), in Firebase's words.
    package static let smsQuotaExceeded = AuthError(code: "QUOTA_EXCEEDED", detail: "Exceeded quota for sending verification codes.")
    package static let operationNotAllowed = AuthError(code: "OPERATION_NOT_ALLOWED")
    /// A code for a number whose region the project's `smsRegionConfig` does not allow (Firebase's wording).
    package static let smsRegionNotAllowed = AuthError(
        code: "OPERATION_NOT_ALLOWED", detail: "SMS unable to be sent until this region enabled by the app developer.")
    package static let unsupportedFirstFactor = AuthError(
        code: "UNSUPPORTED_FIRST_FACTOR",
        detail: "A phone number cannot be set as a first factor on an SMS based MFA user."
    )

    // MARK: Tokens and accounts
    package static let missingIDToken = AuthError(code: "MISSING_ID_TOKEN")
    package static let invalidIDToken = AuthError(code: "INVALID_ID_TOKEN")
    package static let tokenExpired = AuthError(code: "TOKEN_EXPIRED")
    package static let userNotFound = AuthError(code: "USER_NOT_FOUND")
    package static let userDisabled = AuthError(code: "USER_DISABLED")
    package static let missingLocalID = AuthError(code: "MISSING_LOCAL_ID")
    package static let missingGrantType = AuthError(code: "MISSING_GRANT_TYPE")
    package static let invalidGrantType = AuthError(code: "INVALID_GRANT_TYPE")
    package static let missingRefreshToken = AuthError(code: "MISSING_REFRESH_TOKEN")
    package static let invalidRefreshToken = AuthError(code: "INVALID_REFRESH_TOKEN")

    // MARK: Request shape, credentials, project
    package static let missingAPIKey = AuthError(
        status: 403,
        code: "The request is missing a valid API key.",
        reason: "forbidden",
        rpcStatus: "PERMISSION_DENIED"
    )
    package static let invalidAPIKey = AuthError(
        status: 400,
        code: "API key not valid. Please pass a valid API key.",
        reason: "keyInvalid",
        rpcStatus: "INVALID_ARGUMENT"
    )
    package static let unauthenticated = AuthError(
        status: 401,
        code:
            "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.",
        reason: "authError",
        rpcStatus: "UNAUTHENTICATED"
    )
    package static let insufficientPermission = AuthError(
        status: 403,
        code: "INSUFFICIENT_PERMISSION",
        reason: "forbidden",
        rpcStatus: "PERMISSION_DENIED"
    )
    package static let notFound = AuthError(status: 404, code: "Not Found", reason: "notFound", rpcStatus: "NOT_FOUND")
    package static let payloadTooLarge = AuthError(
        status: 413,
        code: "Request payload size exceeds the limit: 1048576 bytes.",
        reason: "badRequest",
        rpcStatus: "INVALID_ARGUMENT"
    )
    package static let internalError = AuthError(status: 500, code: "INTERNAL_ERROR", reason: "backendError", rpcStatus: "INTERNAL")
    package static let projectNotFound = AuthError(status: 404, code: "PROJECT_NOT_FOUND", reason: "notFound", rpcStatus: "NOT_FOUND")

    /// Firebase's answer to unparsable JSON or a field of the wrong type.
    package static func invalidJSON(_ detail: String) -> AuthError {
        AuthError(code: "Invalid JSON payload received. \(detail)", reason: "invalid", rpcStatus: "INVALID_ARGUMENT")
    }

    /// Firebase's `INVALID_ARGUMENT` with a detail, used for config validation.
    package static func invalidArgument(_ detail: String) -> AuthError {
        AuthError(code: "INVALID_ARGUMENT", detail: detail, rpcStatus: "INVALID_ARGUMENT")
    }
}

/// Email link, password and out-of-band code errors.
extension AuthError {
    package static let missingEmail = AuthError(code: "MISSING_EMAIL")
    package static let invalidEmail = AuthError(code: "INVALID_EMAIL")
    /// `VERIFY_AND_CHANGE_EMAIL` without `newEmail`.
    package static let missingNewEmail = AuthError(code: "MISSING_NEW_EMAIL")
    /// `VERIFY_AND_CHANGE_EMAIL` with a `newEmail` that is not an email address.
    package static let invalidNewEmail = AuthError(code: "INVALID_NEW_EMAIL")
    package static let emailMismatch = AuthError(code: "INVALID_EMAIL", detail: "The email provided does not match the sign-in email address.")
    package static let emailExists = AuthError(code: "EMAIL_EXISTS")
    package static let emailNotFound = AuthError(code: "EMAIL_NOT_FOUND")
    package static let missingPassword = AuthError(code: "MISSING_PASSWORD")
    package static let invalidLoginCredentials = AuthError(code: "INVALID_LOGIN_CREDENTIALS")
    package static let passwordLoginDisabled = AuthError(code: "PASSWORD_LOGIN_DISABLED")
    package static let weakPassword = AuthError(code: "WEAK_PASSWORD", detail: "Password should be at least 6 characters")
    package static let missingOobCode = AuthError(code: "MISSING_OOB_CODE")
    package static let invalidOobCode = AuthError(code: "INVALID_OOB_CODE")
    package static let expiredOobCode = AuthError(code: "EXPIRED_OOB_CODE")
    package static let missingRequestType = AuthError(code: "MISSING_REQ_TYPE")
    package static let invalidRequestType = AuthError(code: "INVALID_REQ_TYPE", detail: "Unsupported request parameters.")
    package static let invalidContinueURI = AuthError(
        code: "INVALID_CONTINUE_URI", detail: "((expected an absolute URI with valid scheme and host))")
    package static let missingContinueURI = AuthError(code: "MISSING_CONTINUE_URI")
    package static let unauthorizedDomain = AuthError(code: "UNAUTHORIZED_DOMAIN", detail: "Domain not allowlisted by project")
    package static let missingIdentifier = AuthError(code: "MISSING_IDENTIFIER")
    package static let invalidIdentifier = AuthError(code: "INVALID_IDENTIFIER")
    /// `createAuthUri` with a `providerId` the server does not serve.
    package static let invalidProviderID = AuthError(code: "INVALID_PROVIDER_ID", detail: "Provider Id is not supported.")
    package static let invalidDynamicLinkDomain = AuthError(code: "INVALID_DYNAMIC_LINK_DOMAIN")
    package static let invalidHostingLinkDomain = AuthError(code: "INVALID_HOSTING_LINK_DOMAIN")
    package static let missingAndroidPackageName = AuthError(code: "MISSING_ANDROID_PACKAGE_NAME")
    package static let missingIOSBundleID = AuthError(code: "MISSING_IOS_BUNDLE_ID")
    package static let credentialTooOld = AuthError(code: "CREDENTIAL_TOO_OLD_LOGIN_AGAIN")
    /// A federated identity (provider and raw ID) that another account holds.
    package static let federatedUserIDAlreadyLinked = AuthError(code: "FEDERATED_USER_ID_ALREADY_LINKED")
}
