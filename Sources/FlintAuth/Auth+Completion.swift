import Foundation

/// The completion-handler forms of `Auth`'s methods, as FirebaseAuth's. Completions run on the main queue.
extension Auth {
    /// Creates an account with an email and password.
    public func createUser(
        withEmail email: String, password: String, completion: ((AuthDataResult?, (any Error)?) -> Void)? = nil
    ) {
        deliver(completion) { try await self.createUser(withEmail: email, password: password) }
    }

    /// Signs in with an email and password.
    public func signIn(withEmail email: String, password: String, completion: ((AuthDataResult?, (any Error)?) -> Void)? = nil) {
        deliver(completion) { try await self.signIn(withEmail: email, password: password) }
    }

    /// Signs in with an emailed sign-in link.
    public func signIn(withEmail email: String, link: String, completion: ((AuthDataResult?, (any Error)?) -> Void)? = nil) {
        deliver(completion) { try await self.signIn(withEmail: email, link: link) }
    }

    /// Signs in with a credential.
    public func signIn(with credential: AuthCredential, completion: ((AuthDataResult?, (any Error)?) -> Void)? = nil) {
        deliver(completion) { try await self.signIn(with: credential) }
    }

    /// Signs in a new anonymous account.
    public func signInAnonymously(completion: ((AuthDataResult?, (any Error)?) -> Void)? = nil) {
        deliver(completion) { try await self.signInAnonymously() }
    }

    /// Emails a sign-in link.
    public func sendSignInLink(
        toEmail email: String, actionCodeSettings: ActionCodeSettings, completion: (((any Error)?) -> Void)? = nil
    ) {
        let request = actionCodeSettings.request(type: "EMAIL_SIGNIN", email: email)
        deliver(completion) { try await self.sendOobCode(request) }
    }

    /// Emails a password-reset link.
    public func sendPasswordReset(withEmail email: String, completion: (((any Error)?) -> Void)? = nil) {
        deliver(completion) { try await self.sendPasswordReset(withEmail: email) }
    }

    /// Lists an email's sign-in methods.
    public func fetchSignInMethods(forEmail email: String, completion: (([String]?, (any Error)?) -> Void)? = nil) {
        deliver(completion) { try await self.fetchSignInMethods(forEmail: email) }
    }
}

/// The completion-handler forms of `User`'s methods.
extension User {
    /// The ID token, refreshed when it has five minutes or less left.
    public func getIDToken(completion: ((String?, (any Error)?) -> Void)?) {
        deliver(completion) { try await self.getIDToken() }
    }

    /// The ID token, refreshed when forced or when it has five minutes or less left.
    public func getIDTokenForcingRefresh(_ forceRefresh: Bool, completion: ((String?, (any Error)?) -> Void)?) {
        deliver(completion) { try await self.getIDToken(forcingRefresh: forceRefresh) }
    }

    /// The ID token and its claims.
    public func getIDTokenResult(completion: ((AuthTokenResult?, (any Error)?) -> Void)?) {
        deliver(completion) { try await self.getIDTokenResult() }
    }

    /// The ID token and its claims, refreshed when forced.
    public func getIDTokenResult(forcingRefresh: Bool, completion: ((AuthTokenResult?, (any Error)?) -> Void)?) {
        deliver(completion) { try await self.getIDTokenResult(forcingRefresh: forcingRefresh) }
    }

    /// Reads the profile again.
    public func reload(completion: (((any Error)?) -> Void)? = nil) {
        deliver(completion) { try await self.reload() }
    }

    /// Deletes the account.
    public func delete(completion: (((any Error)?) -> Void)? = nil) {
        deliver(completion) { try await self.delete() }
    }

    /// Links a credential.
    public func link(with credential: AuthCredential, completion: ((AuthDataResult?, (any Error)?) -> Void)? = nil) {
        deliver(completion) { try await self.link(with: credential) }
    }

    /// Signs in again with a credential.
    public func reauthenticate(with credential: AuthCredential, completion: ((AuthDataResult?, (any Error)?) -> Void)? = nil) {
        deliver(completion) { try await self.reauthenticate(with: credential) }
    }
}
