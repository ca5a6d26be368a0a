/// Why a WebAuthn response was refused; the server answers each as an ``AuthError`` in Firebase's shape.
package enum WebAuthnError: Error, Equatable, Sendable {
    /// A part of the response is malformed or fails a check (the part or check is named).
    case invalid(String)
    /// Well formed, but a format or algorithm Flint does not verify.
    case unsupported(String)
    /// The sign-in counter did not increase: the authenticator may have been cloned.
    case counterRegressed

    /// The error a client sees.
    package var authError: AuthError {
        switch self {
        case .invalid(let what): .invalidAuthenticatorResponse.with(detail: "Invalid \(what).")
        case .unsupported(let what): .invalidAuthenticatorResponse.with(detail: "Unsupported \(what).")
        case .counterRegressed: .invalidAuthenticatorResponse.with(detail: "Signature counter did not increase: possibly cloned authenticator.")
        }
    }
}

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
