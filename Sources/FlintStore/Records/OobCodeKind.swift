/// What an out-of-band code is for: Firebase's `requestType` names, stored as their text in
/// `oob_codes.request_type` (and with the outbox email that carries the code). A code of one kind never serves
/// another. Open-ended like ``CodePurpose``: a new kind is a new `static let`.
public struct OobCodeKind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The stored text, Firebase's `requestType` name.
    public let rawValue: String

    /// A kind from its stored text.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Passwordless sign-in with an email link.
    public static let emailSignIn = OobCodeKind(rawValue: "EMAIL_SIGNIN")
    /// Confirming that the address belongs to the account.
    public static let verifyEmail = OobCodeKind(rawValue: "VERIFY_EMAIL")
    /// Choosing a new password.
    public static let passwordReset = OobCodeKind(rawValue: "PASSWORD_RESET")
    /// Confirming a new address before it replaces the account's email.
    public static let verifyAndChangeEmail = OobCodeKind(rawValue: "VERIFY_AND_CHANGE_EMAIL")
    /// Restoring the address an account had before its email changed.
    public static let recoverEmail = OobCodeKind(rawValue: "RECOVER_EMAIL")

    public var description: String { rawValue }

}
