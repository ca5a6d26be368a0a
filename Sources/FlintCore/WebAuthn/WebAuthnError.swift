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
