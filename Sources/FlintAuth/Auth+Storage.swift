import Foundation

extension Auth {
    /// Where an app's user is kept when no directory is given: the Keychain on Apple platforms (FirebaseAuth's
    /// entry names), a `0600` file in the user's application-support directory elsewhere.
    static func defaultStore(for app: FlintApp) -> any UserStorage {
        #if canImport(Security)
            return KeychainUserStore(appName: app.name, googleAppID: app.options.googleAppID, apiKey: app.options.apiKey)
        #else
            return UserStore(appName: app.name, apiKey: app.options.apiKey)
        #endif
    }

    /// The user the store holds, as a `User` of this `Auth`, if one is stored and readable.
    func storedUser() -> User? {
        store.load().map { User(profile: $0.profile, tokens: $0.tokens, backend: backend, auth: self) }
    }

    /// A token of `user` was handed out: turns the automatic refresh on, for `user` when it is the current user.
    func tokenWasHandedOut(by user: User) {
        guard currentUser === user else { return }
        autoRefresh.tokenHandedOut(by: user, auth: self)
    }
}
