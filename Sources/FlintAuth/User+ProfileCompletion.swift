import Foundation

/// The completion-handler forms of the profile methods, as FirebaseAuth's. Completions run on the main queue on Apple
/// platforms, on a serial queue on Linux.
extension User {
    /// Sets a new password.
    public func updatePassword(to password: String, completion: (((any Error)?) -> Void)? = nil) {
        deliver(completion) { try await self.updatePassword(to: password) }
    }

    /// Changes the email address directly (deprecated in FirebaseAuth).
    public func updateEmail(to email: String, completion: (((any Error)?) -> Void)? = nil) {
        deliver(completion) { try await self.updateEmail(to: email) }
    }

    /// Emails a link that verifies the user's address, continuing as `actionCodeSettings` says when given.
    public func sendEmailVerification(with actionCodeSettings: ActionCodeSettings? = nil, completion: (((any Error)?) -> Void)? = nil) {
        let request = Self.verifyEmailRequest(actionCodeSettings)
        deliver(completion) { try await self.sendOobCode(request) }
    }

    /// Emails `email` a link that makes it the user's address once followed.
    public func sendEmailVerification(
        beforeUpdatingEmail email: String, actionCodeSettings: ActionCodeSettings? = nil, completion: (((any Error)?) -> Void)? = nil
    ) {
        let request = Self.changeEmailRequest(email, actionCodeSettings)
        deliver(completion) { try await self.sendOobCode(request) }
    }

    /// Removes a provider from the account.
    public func unlink(fromProvider provider: String, completion: ((User?, (any Error)?) -> Void)? = nil) {
        deliver(completion) { try await self.unlink(fromProvider: provider) }
    }

    /// Replaces the account's phone number.
    public func updatePhoneNumber(_ credential: PhoneAuthCredential, completion: (((any Error)?) -> Void)? = nil) {
        deliver(completion) { try await self.updatePhoneNumber(credential) }
    }
}
