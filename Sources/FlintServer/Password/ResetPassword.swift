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

extension PasswordRoutes {
    func resetPassword(_ request: Request, context: FlintRequestContext) async throws -> ResetPasswordResponse {
        try context.requireClient()
        let wire = try await request.decode(as: ResetPasswordRequest.self, context: context)
        return try await services.resetPassword(wire)
    }
}

extension AuthServices {
    func resetPassword(_ wire: ResetPasswordRequest) async throws -> ResetPasswordResponse {
        guard let newPassword = wire.newPassword else {
            let record = try await peekOobCode(wire.oobCode, expecting: EmailAction.allCases)
            let (email, newEmail) = try await actionCodeEmails(record)
            return ResetPasswordResponse(requestType: record.requestType, email: email, newEmail: newEmail)
        }
        guard config.current.emailSignInEnabled else { throw AuthError.passwordLoginDisabled }
        guard let code = wire.oobCode, !code.isEmpty else { throw AuthError.missingOobCode }
        try Self.checkStrength(newPassword)
        _ = try await peekOobCode(code, expecting: [.passwordReset])
        let hash = try await passwords.hash(newPassword)
        let user = try await applyPasswordReset(code: code, hash: hash)
        return ResetPasswordResponse(requestType: EmailAction.passwordReset.rawValue, email: user.email)
    }

    /// Uses a reset code and stores the new password hash; every earlier session of the account is revoked.
    /// Following the emailed link proves the address, so the email becomes verified.
    func applyPasswordReset(code: String, hash: String) async throws -> UserRecord {
        let now = nowMS
        let result = try await store.write { [self] tx -> Result<UserRecord, AuthError> in
            let record: OobCodeRecord
            switch try await Self.use(code, as: .passwordReset, in: tx, now: now) {
            case .failure(let error): return .failure(error)
            case .success(let used): record = used
            }
            guard let id = record.localID, var user = try await tx.lockedUser(localID: id), user.email == record.email else {
                return .failure(.invalidOobCode)
            }
            guard !user.disabled else { return .failure(.userDisabled) }
            user.passwordHash = hash
            user.passwordUpdatedAt = now
            user.emailVerified = true
            try await revokeSessions(of: &user, in: tx, now: now)
            try await tx.updateUser(user)
            return .success(user)
        }
        return try result.get()
    }
}
