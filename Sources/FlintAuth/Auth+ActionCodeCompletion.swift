import Foundation

/// The completion-handler forms of the action-code methods, as FirebaseAuth's.
extension Auth {
    /// Applies an emailed code (email verification, verified email change).
    public func applyActionCode(_ code: String, completion: (((any Error)?) -> Void)? = nil) {
        deliver(completion) { try await self.applyActionCode(code) }
    }

    /// Tells what a code is for.
    public func checkActionCode(_ code: String, completion: ((ActionCodeInfo?, (any Error)?) -> Void)?) {
        deliver(completion) { try await self.checkActionCode(code) }
    }

    /// The address a password-reset code was sent to.
    public func verifyPasswordResetCode(_ code: String, completion: ((String?, (any Error)?) -> Void)?) {
        deliver(completion) { try await self.verifyPasswordResetCode(code) }
    }

    /// Sets a new password with an emailed reset code.
    public func confirmPasswordReset(withCode code: String, newPassword: String, completion: (((any Error)?) -> Void)? = nil) {
        deliver(completion) { try await self.confirmPasswordReset(withCode: code, newPassword: newPassword) }
    }

    /// Emails a password-reset link whose continue URL and apps come from `actionCodeSettings` when given.
    public func sendPasswordReset(
        withEmail email: String, actionCodeSettings: ActionCodeSettings?, completion: (((any Error)?) -> Void)? = nil
    ) {
        let request =
            actionCodeSettings?.request(type: "PASSWORD_RESET", email: email) ?? SendOobCodeRequest(requestType: "PASSWORD_RESET", email: email)
        deliver(completion) { try await self.sendOobCode(request) }
    }

    /// FirebaseAuth's former name of `signIn(with:completion:)`.
    public func signInAndRetrieveData(with credential: AuthCredential, completion: ((AuthDataResult?, (any Error)?) -> Void)? = nil) {
        deliver(completion) { try await self.signIn(with: credential) }
    }

    /// Makes `user` the current user; `nil` is refused with `nullUser`, as in FirebaseAuth.
    public func updateCurrentUser(_ user: User?, completion: (((any Error)?) -> Void)? = nil) {
        deliver(completion) {
            guard let user else { throw AuthErrorCode.nullUser.error() }
            try await self.updateCurrentUser(user)
        }
    }
}
