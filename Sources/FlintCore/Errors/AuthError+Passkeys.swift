/// The passkey endpoints' errors.
extension AuthError {
    /// A passkey response (`authenticatorRegistrationResponse` / `authenticatorAuthenticationResponse`) that fails
    /// verification. Identity Platform does not document its passkey error strings; Flint uses this one code with a
    /// detail naming the failed check.
    package static let invalidAuthenticatorResponse = AuthError(code: "INVALID_AUTHENTICATOR_RESPONSE")
    /// `passkeySignIn:finalize` with a credential no account holds.
    package static let passkeyNotFound = AuthError(code: "PASSKEY_ENROLLMENT_NOT_FOUND")
    /// `passkeyEnrollment:finalize` with a credential already enrolled (on this or another account).
    package static let passkeyExists = AuthError(code: "PASSKEY_ENROLLMENT_EXISTS")
    /// The challenge is not one Flint issued, was used already, or expired.
    package static let invalidPasskeyChallenge = AuthError(code: "INVALID_AUTHENTICATOR_RESPONSE", detail: "Invalid or expired challenge.")
    /// A missing `authenticatorRegistrationResponse` / `authenticatorAuthenticationResponse`.
    package static let missingAuthenticatorResponse = AuthError(code: "MISSING_AUTHENTICATOR_RESPONSE")
}
