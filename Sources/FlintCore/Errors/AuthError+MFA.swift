/// Multi-factor authentication errors (v2 `mfaEnrollment:*` and `mfaSignIn:*`), with Firebase's strings.
extension AuthError {
    package static let missingMFAPendingCredential = AuthError(
        code: "MISSING_MFA_PENDING_CREDENTIAL", detail: "Request does not have MFA pending credential.")
    package static let missingMFAEnrollmentID = AuthError(code: "MISSING_MFA_ENROLLMENT_ID", detail: "No second factor identifier is provided.")
    package static let invalidMFAPendingCredential = AuthError(code: "INVALID_MFA_PENDING_CREDENTIAL")
    package static let mfaEnrollmentNotFound = AuthError(code: "MFA_ENROLLMENT_NOT_FOUND")
    package static let secondFactorExists = AuthError(
        code: "SECOND_FACTOR_EXISTS", detail: "Phone number already enrolled as second factor for this account.")
    package static let secondFactorLimitExceeded = AuthError(code: "SECOND_FACTOR_LIMIT_EXCEEDED")
    package static let unverifiedEmail = AuthError(code: "UNVERIFIED_EMAIL", detail: "Need to verify email first before enrolling second factors.")
    /// MFA sign-in after a first factor that cannot be followed by one (the existing ``unsupportedFirstFactor`` is
    /// the other direction: a phone first factor on an SMS MFA user).
    package static let mfaUnsupportedFirstFactor = AuthError(
        code: "UNSUPPORTED_FIRST_FACTOR", detail: "MFA is not available for the given first factor.")
    package static let smsMFANotEnabled = AuthError(code: "OPERATION_NOT_ALLOWED", detail: "SMS based MFA not enabled.")
    package static let totpMFANotEnabled = AuthError(code: "OPERATION_NOT_ALLOWED", detail: "TOTP based MFA not enabled.")
    /// A finalize call without `mfaPendingCredential` (the one Firebase answers with `MISSING_CREDENTIAL`).
    package static let missingMFACredential = AuthError(code: "MISSING_CREDENTIAL", detail: "Please set MFA Pending Credential.")
    package static let mfaProviderNotSupported = AuthError(code: "INVALID_ARGUMENT", detail: "MFA provider not supported!")
    package static let missingPhoneEnrollmentInfo = AuthError(code: "INVALID_ARGUMENT", detail: "((Missing phoneEnrollmentInfo.))")
    package static let missingPhoneVerificationInfo = AuthError(code: "INVALID_ARGUMENT", detail: "((Missing phoneVerificationInfo.))")
}
