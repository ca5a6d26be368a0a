/// Custom tokens, developer claims and session cookies, with Firebase's strings.
extension AuthError {
    public static let missingCustomToken = AuthError(code: "MISSING_CUSTOM_TOKEN")
    /// A malformed, unsigned (outside dev mode), badly signed, expired or otherwise refused custom token.
    public static let invalidCustomToken = AuthError(code: "INVALID_CUSTOM_TOKEN")
    /// A custom token signed by a service account this project does not know (Firebase: another project's).
    public static let credentialMismatch = AuthError(code: "CREDENTIAL_MISMATCH")
    public static let tenantIDMismatch = AuthError(code: "TENANT_ID_MISMATCH")
    public static let invalidClaims = AuthError(code: "INVALID_CLAIMS")
    /// A reserved claim name; the detail names it.
    public static let forbiddenClaim = AuthError(code: "FORBIDDEN_CLAIM")
    public static let claimsTooLarge = AuthError(code: "CLAIMS_TOO_LARGE")
    /// A session cookie's `validDuration` outside 5 minutes – 14 days.
    public static let invalidDuration = AuthError(code: "INVALID_DURATION")
}
