import FlintCore
import FlintStore
import FlintTexts
import Hummingbird

/// `accounts:resetPassword` (v1) and `relyingparty/resetPassword` (v3): with only `oobCode`, says what the code is
/// for without using it (`verifyPasswordResetCode`); with `newPassword`, uses a `PASSWORD_RESET` code and sets it.
struct ResetPasswordRequest: Decodable {
    var oobCode: String?
    var newPassword: String?
    /// Checked for its type only.
    var email: String?
}

struct ResetPasswordResponse: ResponseEncodable {
    var kind = "identitytoolkit#ResetPasswordResponse"
    var requestType: String
    var email: String?
    /// For a `VERIFY_AND_CHANGE_EMAIL` code, the address the account's email becomes.
    var newEmail: String?
}

extension PasswordFlow {
    func resetPassword(_ wire: ResetPasswordRequest) async throws -> ResetPasswordResponse {
        guard let newPassword = wire.newPassword else {
            let record = try await codes.peekOobCode(wire.oobCode, expecting: EmailAction.allCases)
            let (email, newEmail) = try await codes.actionCodeEmails(record)
            return ResetPasswordResponse(requestType: record.requestType.rawValue, email: email, newEmail: newEmail)
        }
        guard node.config.current.emailSignInEnabled else { throw AuthError.passwordLoginDisabled }
        guard let code = wire.oobCode, !code.isEmpty else { throw AuthError.missingOobCode }
        try await passwords.checkNew(newPassword, rules: node.config.current.newPasswordRules)
        _ = try await codes.peekOobCode(code, expecting: [.passwordReset])
        let hash = try await passwords.hash(newPassword)
        let user = try await codes.applyPasswordReset(code: code, hash: hash)
        return ResetPasswordResponse(requestType: EmailAction.passwordReset.rawValue, email: user.email)
    }
}
