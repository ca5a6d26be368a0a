import Foundation

/// The domain and `userInfo` keys of FirebaseAuth's errors.
public enum AuthErrors {
    /// `FIRAuthErrorDomain`.
    public static let domain = "FIRAuthErrorDomain"
    /// The `ERROR_…` name of the code.
    public static let userInfoNameKey = "FIRAuthErrorUserInfoNameKey"
    /// The email address an error concerns.
    public static let userInfoEmailKey = "FIRAuthErrorUserInfoEmailKey"
    /// The decoded `error` object of the server's answer, for `internalError`.
    public static let userInfoDeserializedResponseKey = "FIRAuthErrorUserInfoDeserializedResponseKey"
    /// The credential to sign in with instead, for `credentialAlreadyInUse` after linking a phone number another
    /// account has.
    public static let userInfoUpdatedCredentialKey = "FIRAuthErrorUserInfoUpdatedCredentialKey"
    /// The `MultiFactorResolver` of a `secondFactorRequired` error.
    public static let userInfoMultiFactorResolverKey = AuthErrorUserInfoMultiFactorResolverKey
}

extension AuthErrorCode {
    /// The code for a server message (the part of `error.message` left of the first `:`), as
    /// `AuthBackend.clientError` maps it; `nil` for messages FirebaseAuth reports as `internalError`.
    init?(serverMessage: String) {
        switch serverMessage {
        case "INVALID_CUSTOM_TOKEN": self = .invalidCustomToken
        case "CREDENTIAL_MISMATCH": self = .customTokenMismatch
        case "INVALID_IDP_RESPONSE", "INVALID_PENDING_TOKEN", "INVALID_LOGIN_CREDENTIALS": self = .invalidCredential
        case "USER_DISABLED": self = .userDisabled
        case "OPERATION_NOT_ALLOWED", "PASSWORD_LOGIN_DISABLED": self = .operationNotAllowed
        case "EMAIL_EXISTS": self = .emailAlreadyInUse
        case "INVALID_EMAIL", "INVALID_IDENTIFIER": self = .invalidEmail
        case "INVALID_PASSWORD": self = .wrongPassword
        case "TOO_MANY_ATTEMPTS_TRY_LATER": self = .tooManyRequests
        case "USER_NOT_FOUND", "EMAIL_NOT_FOUND": self = .userNotFound
        case "CREDENTIAL_TOO_OLD_LOGIN_AGAIN": self = .requiresRecentLogin
        case "INVALID_ID_TOKEN": self = .invalidUserToken
        case "TOKEN_EXPIRED": self = .userTokenExpired
        case "FEDERATED_USER_ID_ALREADY_LINKED", "PHONE_NUMBER_EXISTS": self = .credentialAlreadyInUse
        case "WEAK_PASSWORD": self = .weakPassword
        case "EXPIRED_OOB_CODE": self = .expiredActionCode
        case "INVALID_OOB_CODE": self = .invalidActionCode
        case "INVALID_MESSAGE_PAYLOAD": self = .invalidMessagePayload
        case "INVALID_SENDER": self = .invalidSender
        case "INVALID_RECIPIENT_EMAIL": self = .invalidRecipientEmail
        case "MISSING_EMAIL": self = .missingEmail
        case "MISSING_IOS_BUNDLE_ID": self = .missingIosBundleID
        case "MISSING_ANDROID_PACKAGE_NAME": self = .missingAndroidPackageName
        case "UNAUTHORIZED_DOMAIN": self = .unauthorizedDomain
        case "INVALID_CONTINUE_URI": self = .invalidContinueURI
        case "MISSING_CONTINUE_URI": self = .missingContinueURI
        case "MISSING_PHONE_NUMBER": self = .missingPhoneNumber
        case "INVALID_PHONE_NUMBER": self = .invalidPhoneNumber
        case "MISSING_CODE": self = .missingVerificationCode
        case "MISSING_SESSION_INFO": self = .missingVerificationID
        case "INVALID_CODE": self = .invalidVerificationCode
        case "INVALID_SESSION_INFO": self = .invalidVerificationID
        case "MISSING_APP_CREDENTIAL": self = .missingAppCredential
        case "INVALID_APP_CREDENTIAL": self = .invalidAppCredential
        case "SESSION_EXPIRED": self = .sessionExpired
        case "QUOTA_EXCEEDED": self = .quotaExceeded
        case "MISSING_IOS_APP_TOKEN": self = .missingAppToken
        case "APP_NOT_VERIFIED": self = .appNotVerified
        case "CAPTCHA_CHECK_FAILED": self = .captchaCheckFailed
        case "INVALID_PROVIDER_ID": self = .invalidProviderID
        case "NO_SUCH_PROVIDER": self = .noSuchProvider
        case "TENANT_ID_MISMATCH": self = .tenantIDMismatch
        case "UNSUPPORTED_TENANT_OPERATION": self = .unsupportedTenantOperation
        case "MISSING_MFA_PENDING_CREDENTIAL": self = .missingMultiFactorSession
        case "MISSING_MFA_ENROLLMENT_ID": self = .missingMultiFactorInfo
        case "INVALID_MFA_PENDING_CREDENTIAL": self = .invalidMultiFactorSession
        case "MFA_ENROLLMENT_NOT_FOUND": self = .multiFactorInfoNotFound
        case "ADMIN_ONLY_OPERATION": self = .adminRestrictedOperation
        case "UNVERIFIED_EMAIL": self = .unverifiedEmail
        case "SECOND_FACTOR_EXISTS": self = .secondFactorAlreadyEnrolled
        case "SECOND_FACTOR_LIMIT_EXCEEDED": self = .maximumSecondFactorCountExceeded
        case "UNSUPPORTED_FIRST_FACTOR": self = .unsupportedFirstFactor
        case "EMAIL_CHANGE_NEEDS_VERIFICATION": self = .emailChangeNeedsVerification
        case "MISSING_CLIENT_IDENTIFIER": self = .missingClientIdentifier
        case "MISSING_OR_INVALID_NONCE": self = .missingOrInvalidNonce
        case "BLOCKING_FUNCTION_ERROR_RESPONSE": self = .blockingCloudFunctionError
        case "PASSWORD_DOES_NOT_MEET_REQUIREMENTS": self = .passwordDoesNotMeetRequirements
        case "INVALID_HOSTING_LINK_DOMAIN": self = .invalidHostingLinkDomain
        case "PASSKEY_ENROLLMENT_NOT_FOUND": self = .missingPasskeyEnrollment
        case "INVALID_AUTHENTICATOR_RESPONSE": self = .invalidAuthenticatorResponse
        default: return nil
        }
    }

    /// FirebaseAuth's `ERROR_…` name for the code.
    var errorName: String {
        switch self {
        case .missingAppCredential: return "MISSING_APP_CREDENTIAL"
        case .invalidAppCredential: return "INVALID_APP_CREDENTIAL"
        case .customTokenMismatch: return "ERROR_CUSTOM_TOKEN_MISMATCH"
        case .missingAndroidPackageName: return "ERROR_MISSING_ANDROID_PKG_NAME"
        case .invalidVerificationCode: return "ERROR_INVALID_VERIFICATION_CODE"
        case .invalidVerificationID: return "ERROR_INVALID_VERIFICATION_ID"
        case .blockingCloudFunctionError: return "ERROR_BLOCKING_CLOUD_FUNCTION_RETURNED_ERROR"
        case .appVerificationUserInteractionFailure: return "ERROR_APP_VERIFICATION_FAILED"
        case .webSignInUserInteractionFailure: return "ERROR_WEB_USER_INTERACTION_FAILURE"
        case .recaptchaSDKNotLinked: return "ERROR_RECAPTCHA_SDK_NOT_LINKED"
        case .missingPasskeyEnrollment: return "ERROR_PASSKEY_ENROLLMENT_NOT_FOUND"
        default: return "ERROR_" + Self.snakeCase("\(self)")
        }
    }

    /// `invalidAPIKey` → `INVALID_API_KEY`: a break before an uppercase letter that follows a lowercase one, or
    /// that starts a word after an acronym.
    private static func snakeCase(_ name: String) -> String {
        let characters = Array(name)
        var out = ""
        for (index, character) in characters.enumerated() {
            if index > 0, character.isUppercase {
                let previous = characters[index - 1]
                let nextIsLower = index + 1 < characters.count && characters[index + 1].isLowercase
                if previous.isLowercase || previous.isNumber || (previous.isUppercase && nextIsLower) { out.append("_") }
            }
            out.append(contentsOf: character.uppercased())
        }
        return out
    }

    /// The `NSError` FirebaseAuth would report.
    func error(detail: String? = nil, userInfo extra: [String: Any] = [:]) -> NSError {
        var userInfo = extra
        userInfo[AuthErrors.userInfoNameKey] = errorName
        if self == .weakPassword, let detail, !detail.isEmpty {
            // FirebaseAuth keeps WEAK_PASSWORD's detail as the failure reason, beside the standard message.
            userInfo[NSLocalizedFailureReasonErrorKey] = detail
            userInfo[NSLocalizedDescriptionKey] = defaultMessage
        } else {
            userInfo[NSLocalizedDescriptionKey] = detail.flatMap { $0.isEmpty ? nil : $0 } ?? defaultMessage
        }
        return NSError(domain: AuthErrors.domain, code: rawValue, userInfo: userInfo)
    }
}

/// The domain of the SDK's errors, `FIRAuthErrorDomain`.
public let AuthErrorDomain = AuthErrors.domain
/// The `userInfo` key of an error's `ERROR_…` name.
public let AuthErrorUserInfoNameKey = AuthErrors.userInfoNameKey
/// The `userInfo` key of the email address an error concerns.
public let AuthErrorUserInfoEmailKey = AuthErrors.userInfoEmailKey
/// The `userInfo` key of the credential to sign in with instead (`credentialAlreadyInUse`).
public let AuthErrorUserInfoUpdatedCredentialKey = AuthErrors.userInfoUpdatedCredentialKey
