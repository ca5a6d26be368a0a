/// One `mfaInfo` entry as the server sends it: in a first-factor answer (a hint, the phone number masked) and in
/// `accounts:lookup` (the owner's view).
struct MFAEnrollmentWire: Decodable {
    struct TOTPInfo: Decodable {}

    var mfaEnrollmentId: String?
    var displayName: String?
    var enrolledAt: String?
    var phoneInfo: String?
    var totpInfo: TOTPInfo?
}

/// The body of `v2/accounts/mfaEnrollment:start` (`StartMFAEnrollmentRequest`: a signed-in user's `idToken`, or —
/// Flint's mandatory-enrolment extension — the `mfaPendingCredential` of a sign-in that must enrol first; the
/// number to enrol, or a TOTP secret asked for) and of `mfaSignIn:start` (`StartMFASignInRequest`: the sign-in's
/// `mfaPendingCredential` and which enrolled phone to text). Absent fields are not encoded.
struct StartMFARequest: Encodable {
    struct TOTPEnrollmentInfo: Encodable {}

    var idToken: String?
    var mfaPendingCredential: String?
    var mfaEnrollmentId: String?
    var phoneEnrollmentInfo: PhoneCodeRequest?
    var phoneSignInInfo: PhoneCodeRequest?
    var totpEnrollmentInfo: TOTPEnrollmentInfo?
}

/// The answer of `mfaEnrollment:start`: the SMS session (the verification ID) or the new TOTP secret.
struct StartMFAEnrollmentResponse: Decodable {
    struct TOTPSessionInfo: Decodable {
        var sharedSecretKey: String?
        var verificationCodeLength: Int?
        var hashingAlgorithm: String?
        var periodSec: Int?
        var sessionInfo: String?
        var finalizeEnrollmentTime: String?
    }
    var phoneSessionInfo: PhoneCodeSession?
    var totpSessionInfo: TOTPSessionInfo?
}

/// The proof of a second factor, as `mfaEnrollment:finalize` and `mfaSignIn:finalize` take it.
struct PhoneVerificationInfo: Encodable {
    var sessionInfo: String
    var code: String
}

/// A TOTP one-time password: with the enrolment session at enrolment, alone at sign-in.
struct TOTPVerificationInfo: Encodable {
    var sessionInfo: String?
    var verificationCode: String
}

/// The body of `v2/accounts/mfaEnrollment:finalize` (`FinalizeMFAEnrollmentRequest`: the enrolling user's `idToken`
/// or `mfaPendingCredential`, the factor's `displayName` and its proof) and of `mfaSignIn:finalize`
/// (`FinalizeMFASignInRequest`: the sign-in's `mfaPendingCredential`, the TOTP factor's `mfaEnrollmentId` and the
/// proof, or Flint's `recoveryCode` instead). Absent fields are not encoded.
struct FinalizeMFARequest: Encodable {
    var idToken: String?
    var mfaPendingCredential: String?
    var mfaEnrollmentId: String?
    var displayName: String?
    var phoneVerificationInfo: PhoneVerificationInfo?
    var totpVerificationInfo: TOTPVerificationInfo?
    var recoveryCode: String?
}

/// `v2/accounts/mfaEnrollment:withdraw` (`WithdrawMFARequest`).
struct WithdrawMFARequest: Encodable {
    var idToken: String
    var mfaEnrollmentId: String
}

/// The answer of `mfaSignIn:start`.
struct StartMFASignInResponse: Decodable {
    var phoneResponseInfo: PhoneCodeSession?
}

/// Flint's one-time recovery codes: the answer of `v1/accounts/mfaRecoveryCodes:regenerate` (whose body is the
/// user's `IDTokenRequest`; the old codes stop working), and beside the tokens of the first enrolment.
struct RecoveryCodes: Decodable {
    var recoveryCodes: [String]?
}

/// The answer of `mfaEnrollment:finalize`, `mfaEnrollment:withdraw` and `mfaSignIn:finalize`: a sign-in answer (its
/// tokens); the first enrolment also returns Flint's one-time `recoveryCodes` beside them.
typealias MFATokensResponse = SignInResponse.With<RecoveryCodes>
