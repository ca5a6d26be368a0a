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

/// `v2/accounts/mfaEnrollment:start` (`StartMFAEnrollmentRequest`): a signed-in user's `idToken`, or — Flint's
/// mandatory-enrolment extension — the `mfaPendingCredential` of a sign-in that must enrol first.
struct StartMFAEnrollmentRequest: Encodable {
    struct TOTPEnrollmentInfo: Encodable {}

    var idToken: String?
    var mfaPendingCredential: String?
    var phoneEnrollmentInfo: PhoneCodeRequest?
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

/// `v2/accounts/mfaEnrollment:finalize` (`FinalizeMFAEnrollmentRequest`).
struct FinalizeMFAEnrollmentRequest: Encodable {
    var idToken: String?
    var mfaPendingCredential: String?
    var displayName: String?
    var phoneVerificationInfo: PhoneVerificationInfo?
    var totpVerificationInfo: TOTPVerificationInfo?
}

/// `v2/accounts/mfaEnrollment:withdraw` (`WithdrawMFARequest`).
struct WithdrawMFARequest: Encodable {
    var idToken: String
    var mfaEnrollmentId: String
}

/// `v2/accounts/mfaSignIn:start` (`StartMFASignInRequest`): which enrolled phone to text.
struct StartMFASignInRequest: Encodable {
    var mfaPendingCredential: String
    var mfaEnrollmentId: String
    var phoneSignInInfo: PhoneCodeRequest
}

/// The answer of `mfaSignIn:start`.
struct StartMFASignInResponse: Decodable {
    var phoneResponseInfo: PhoneCodeSession?
}

/// `v2/accounts/mfaSignIn:finalize` (`FinalizeMFASignInRequest`), with Flint's `recoveryCode` alternative.
struct FinalizeMFASignInRequest: Encodable {
    var mfaPendingCredential: String
    var mfaEnrollmentId: String?
    var phoneVerificationInfo: PhoneVerificationInfo?
    var totpVerificationInfo: TOTPVerificationInfo?
    var recoveryCode: String?
}

/// The answer of `mfaEnrollment:finalize`, `mfaEnrollment:withdraw` and `mfaSignIn:finalize`: a sign-in answer (its
/// tokens); the first enrolment also returns Flint's one-time `recoveryCodes` beside them.
struct MFATokensResponse: Decodable {
    var signInResponse: SignInResponse
    var recoveryCodes: [String]?

    private enum CodingKeys: String, CodingKey { case recoveryCodes }

    init(from decoder: any Decoder) throws {
        signInResponse = try SignInResponse(from: decoder)
        recoveryCodes = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent([String].self, forKey: .recoveryCodes)
    }
}

/// Flint's `v1/accounts/mfaRecoveryCodes:regenerate`.
struct RegenerateRecoveryCodesRequest: Encodable {
    var idToken: String
}

/// Its answer: the new codes (the old ones stop working).
struct RegenerateRecoveryCodesResponse: Decodable {
    var recoveryCodes: [String]?
}
