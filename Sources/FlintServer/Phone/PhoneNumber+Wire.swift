import FlintCore

extension PhoneNumber {
    /// Parses a number the way every endpoint does: missing or malformed → `INVALID_PHONE_NUMBER`, with the parser's
    /// reason as the detail.
    init(wire text: String?) throws(AuthError) {
        guard let text, !text.isEmpty else { throw AuthError.invalidPhoneNumber }
        do {
            try self.init(parsing: text)
        } catch {
            throw AuthError.invalidPhoneNumber.with(detail: error.detail)
        }
    }
}
