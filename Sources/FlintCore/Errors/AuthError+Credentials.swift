/// Custom tokens, developer claims and session cookies, with Firebase's strings.
extension AuthError {
    package static let missingCustomToken = AuthError(code: "MISSING_CUSTOM_TOKEN")
    /// A malformed, unsigned (outside dev mode), badly signed, expired or otherwise refused custom token.
    package static let invalidCustomToken = AuthError(code: "INVALID_CUSTOM_TOKEN")
    /// A custom token signed by a service account this project does not know (Firebase: another project's).
    package static let credentialMismatch = AuthError(code: "CREDENTIAL_MISMATCH")
    package static let tenantIDMismatch = AuthError(code: "TENANT_ID_MISMATCH")
    package static let invalidClaims = AuthError(code: "INVALID_CLAIMS")
    /// A reserved claim name; the detail names it.
    package static let forbiddenClaim = AuthError(code: "FORBIDDEN_CLAIM")
    package static let claimsTooLarge = AuthError(code: "CLAIMS_TOO_LARGE")
    /// A session cookie's `validDuration` outside 5 minutes – 14 days.
    package static let invalidDuration = AuthError(code: "INVALID_DURATION")
}
