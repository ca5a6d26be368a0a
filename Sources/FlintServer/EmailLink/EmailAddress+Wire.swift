import FlintCore

extension EmailAddress {
    /// An address as every endpoint reads it: `MISSING_EMAIL` when absent, `INVALID_EMAIL` when empty or malformed
    /// (as Firebase answers), else its stored (lower-cased) form.
    static func wire(_ text: String?) throws(AuthError) -> String {
        guard let text else { throw AuthError.missingEmail }
        guard let email = normalize(text) else { throw AuthError.invalidEmail }
        return email
    }
}
