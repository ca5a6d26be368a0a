import Foundation

extension Auth {
    /// Applies an emailed code that needs no input: an email verification or a verified email change
    /// (`accounts:update` with the `oobCode`). The signed-in user is not reloaded; call `User.reload()`.
    /// - Throws: `invalidActionCode` (unknown, used, or of another kind), `expiredActionCode`, `emailAlreadyInUse`,
    ///   `userDisabled`, `networkError`.
    public func applyActionCode(_ code: String) async throws {
        _ = try await backend.call("accounts:update", SetAccountInfoRequest(oobCode: code), as: EmptyResponse.self)
    }

    /// Tells what a code is for and which addresses it concerns, without using it (`accounts:resetPassword` with
    /// only the `oobCode`).
    /// - Throws: `invalidActionCode`, `expiredActionCode`, `networkError`.
    public func checkActionCode(_ code: String) async throws -> ActionCodeInfo {
        let response = try await backend.call("accounts:resetPassword", ResetPasswordRequest(oobCode: code), as: ResetPasswordResponse.self)
        return ActionCodeInfo(operation: ActionCodeOperation(requestType: response.requestType), email: response.email, newEmail: response.newEmail)
    }

    /// The address a password-reset code was sent to, without using the code.
    /// - Throws: `invalidActionCode` (also for a code of another kind), `expiredActionCode`, `networkError`.
    public func verifyPasswordResetCode(_ code: String) async throws -> String {
        let info = try await checkActionCode(code)
        guard info.operation == .passwordReset else {
            throw AuthErrorCode.invalidActionCode.error(detail: "The code is not a password-reset code.")
        }
        return info.email
    }

    /// Sets a new password with an emailed reset code (`accounts:resetPassword`); the account's earlier sessions end.
    /// - Throws: `invalidActionCode`, `expiredActionCode`, `weakPassword`, `userDisabled`, `networkError`.
    public func confirmPasswordReset(withCode code: String, newPassword: String) async throws {
        _ = try await backend.call(
            "accounts:resetPassword", ResetPasswordRequest(oobCode: code, newPassword: newPassword), as: ResetPasswordResponse.self)
    }

    /// FirebaseAuth's former name of `signIn(with:)`, still used by older apps: the same sign-in.
    @discardableResult
    public func signInAndRetrieveData(with credential: AuthCredential) async throws -> AuthDataResult {
        try await signIn(with: credential)
    }

    /// Makes `user` the current user, stores it and tells the listeners. A user of another app with the same API key
    /// is moved to this `Auth`; with another API key it is first reloaded through this app's server (proving the
    /// account exists there), and a copy bound to this `Auth` becomes current.
    /// - Throws: `userTokenExpired`, `invalidUserToken`, `userNotFound` when the account cannot be reloaded here;
    ///   `keychainError` when it cannot be stored.
    public func updateCurrentUser(_ user: User) async throws {
        if user.tenantID != tenantID { throw AuthErrorCode.tenantIDMismatch.error() }
        if user.auth === self {
            try await makeCurrent(user)
            return
        }
        if user.backend.configuration.current.apiKey == backend.configuration.current.apiKey {
            user.attach(to: self)
            try await makeCurrent(user)
            return
        }
        let tokens = await user.tokenService.tokens
        let copy = User(profile: user.profile.current, tokens: tokens, backend: backend, auth: self)
        try await copy.load(idToken: try await copy.getIDToken())
        try await makeCurrent(copy)
    }
}
