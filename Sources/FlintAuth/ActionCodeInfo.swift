/// What an emailed action code is for, as FirebaseAuth's `ActionCodeOperation` (same raw values).
public enum ActionCodeOperation: Int, Sendable {
    /// An operation the SDK does not know.
    case unknown = 0
    /// A password reset (`PASSWORD_RESET`, link mode `resetPassword`).
    case passwordReset = 1
    /// An email verification (`VERIFY_EMAIL`, `verifyEmail`).
    case verifyEmail = 2
    /// An email recovery (`RECOVER_EMAIL`, `recoverEmail`).
    case recoverEmail = 3
    /// An email sign-in link (`EMAIL_SIGNIN`, `signIn`).
    case emailLink = 4
    /// A verified email change (`VERIFY_AND_CHANGE_EMAIL`, `verifyAndChangeEmail`).
    case verifyAndChangeEmail = 5
    /// Undoing a second-factor enrollment (`REVERT_SECOND_FACTOR_ADDITION`, `revertSecondFactorAddition`).
    case revertSecondFactorAddition = 6

    /// The operation of a server `requestType`, or of a link's `mode`.
    init(requestType: String?) {
        switch requestType {
        case "PASSWORD_RESET", "resetPassword": self = .passwordReset
        case "VERIFY_EMAIL", "verifyEmail": self = .verifyEmail
        case "RECOVER_EMAIL", "recoverEmail": self = .recoverEmail
        case "EMAIL_SIGNIN", "signIn": self = .emailLink
        case "VERIFY_AND_CHANGE_EMAIL", "verifyAndChangeEmail": self = .verifyAndChangeEmail
        case "REVERT_SECOND_FACTOR_ADDITION", "revertSecondFactorAddition": self = .revertSecondFactorAddition
        default: self = .unknown
        }
    }
}

/// What `Auth.checkActionCode(_:)` tells about a code, as FirebaseAuth's `ActionCodeInfo`.
public final class ActionCodeInfo: Sendable {
    /// What the code is for.
    public let operation: ActionCodeOperation
    /// The address the code concerns: for a verified email change the new address, otherwise the account's (empty
    /// for a sign-in link, whose answer names none).
    public let email: String
    /// For a verified email change (or a recovery), the account's address before the change.
    public let previousEmail: String?

    init(operation: ActionCodeOperation, email: String?, newEmail: String?) {
        self.operation = operation
        if let newEmail, !newEmail.isEmpty {
            self.email = newEmail
            previousEmail = email
        } else {
            self.email = email ?? ""
            previousEmail = nil
        }
    }
}
