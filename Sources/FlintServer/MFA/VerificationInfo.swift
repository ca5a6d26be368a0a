/// Firebase's `FinalizeMfaPhoneRequestInfo`: the code sent by SMS and the session it was sent for.
struct PhoneVerificationInfo: Decodable {
    var sessionInfo: String?
    var code: String?
}

/// Firebase's `FinalizeMfaTotpEnrollmentRequestInfo` / `MfaTotpSignInRequestInfo`: the one-time password, with the
/// enrolment session (enrolling) or the factor it belongs to (signing in).
struct TOTPVerificationInfo: Decodable {
    var sessionInfo: String?
    var verificationCode: String?
    var mfaEnrollmentId: String?
}
