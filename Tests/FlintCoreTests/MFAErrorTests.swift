import FlintCore
import HTTPTypes
import Testing

@Suite("MFA error strings")
struct MFAErrorTests {
    @Test(
        "messages are Firebase's exactly",
        arguments: [
            (AuthError.missingMFAPendingCredential, "MISSING_MFA_PENDING_CREDENTIAL : Request does not have MFA pending credential."),
            (.missingMFAEnrollmentID, "MISSING_MFA_ENROLLMENT_ID : No second factor identifier is provided."),
            (.invalidMFAPendingCredential, "INVALID_MFA_PENDING_CREDENTIAL"),
            (.mfaEnrollmentNotFound, "MFA_ENROLLMENT_NOT_FOUND"),
            (.secondFactorExists, "SECOND_FACTOR_EXISTS : Phone number already enrolled as second factor for this account."),
            (.secondFactorLimitExceeded, "SECOND_FACTOR_LIMIT_EXCEEDED"),
            (.unverifiedEmail, "UNVERIFIED_EMAIL : Need to verify email first before enrolling second factors."),
            (.mfaUnsupportedFirstFactor, "UNSUPPORTED_FIRST_FACTOR : MFA is not available for the given first factor."),
            (.smsMFANotEnabled, "OPERATION_NOT_ALLOWED : SMS based MFA not enabled."),
            (.totpMFANotEnabled, "OPERATION_NOT_ALLOWED : TOTP based MFA not enabled."),
            (.missingMFACredential, "MISSING_CREDENTIAL : Please set MFA Pending Credential."),
            (.mfaProviderNotSupported, "INVALID_ARGUMENT : MFA provider not supported!"),
            (.missingPhoneEnrollmentInfo, "INVALID_ARGUMENT : ((Missing phoneEnrollmentInfo.))"),
            (.missingPhoneVerificationInfo, "INVALID_ARGUMENT : ((Missing phoneVerificationInfo.))"),
            (.invalidCode, "INVALID_CODE"),
        ]
    )
    func message(error: AuthError, message: String) {
        #expect(error.message == message)
        #expect(error.status.code == 400)
    }
}
