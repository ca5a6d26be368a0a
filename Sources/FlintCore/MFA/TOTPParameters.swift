/// The shape of a TOTP code: how many digits, how long each code lives and which HMAC makes it.
///
/// The defaults (6 digits, 30 seconds, SHA-1) are what every authenticator app supports and what Firebase uses.
package struct TOTPParameters: Sendable, Equatable {
    /// The HMAC hash function (RFC 6238 §1.2), named as `otpauth://` URLs spell it.
    package enum Algorithm: String, Sendable, Equatable, CaseIterable {
        case sha1 = "SHA1"
        case sha256 = "SHA256"
        case sha512 = "SHA512"
    }

    /// Digits per code (RFC 4226 allows 6 to 10; 6 is universal).
    package var digits: Int = 6
    /// Seconds per time step.
    package var period: Int = 30
    /// The HMAC hash function.
    package var algorithm: Algorithm = .sha1

    /// Creates parameters; the defaults are 6 digits, 30 seconds and SHA-1.
    package init(digits: Int = 6, period: Int = 30, algorithm: Algorithm = .sha1) {
        self.digits = digits
        self.period = period
        self.algorithm = algorithm
    }
}
