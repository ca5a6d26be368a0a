/// A kind of second factor, as `mfa_enrollments.factor` stores it and as ID tokens carry it in
/// `firebase.sign_in_second_factor`.
public struct SecondFactorKind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The stored (and claimed) text.
    public let rawValue: String

    /// A kind from its stored text.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// SMS codes to an enrolled phone number.
    public static let phone = SecondFactorKind(rawValue: "phone")
    /// An authenticator app's time-based codes.
    public static let totp = SecondFactorKind(rawValue: "totp")
    /// A one-time recovery code; never enrolled, only claimed by the session it signed in.
    public static let recoveryCode = SecondFactorKind(rawValue: "recovery_code")

    public var description: String { rawValue }
}
