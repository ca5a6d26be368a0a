/// One rule of a project's password policy (`passwordPolicyConfig`) that a password may miss. FlintCore adds
/// Firebase's wire texts (notification codes, the `PASSWORD_DOES_NOT_MEET_REQUIREMENTS` sentences); the action page
/// lists the rules, and the missed ones, in the reader's language.
package enum PasswordRequirement: Sendable, Equatable {
    /// At least this many characters.
    case minLength(Int)
    /// At most this many characters.
    case maxLength(Int)
    /// A lower-case ASCII letter.
    case lowercase
    /// An upper-case ASCII letter.
    case uppercase
    /// An ASCII digit.
    case numeric
    /// One of Firebase's non-alphanumeric characters.
    case nonAlphanumeric
}
