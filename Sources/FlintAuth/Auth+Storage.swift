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

    /// Where the user shared through `accessGroup` is kept: the Keychain item of that access group on Apple
    /// platforms (as FirebaseAuth's), on Linux a `0600` file under `AccessGroups/<group>/` that every process of the
    /// OS user naming the same group and API key shares.
    func store(forAccessGroup accessGroup: String?) -> any UserStorage {
        let options = flintApp.options
        guard let accessGroup else {
            return storeDirectory.map { UserStore(appName: flintApp.name, apiKey: options.apiKey, directory: $0) } ?? Self.defaultStore(for: flintApp)
        }
        if let storeDirectory { return UserStore(accessGroup: accessGroup, apiKey: options.apiKey, directory: storeDirectory) }
        #if canImport(Security)
            return KeychainUserStore(accessGroup: accessGroup, apiKey: options.apiKey, shareAcrossDevices: shareAuthStateAcrossDevices)
        #else
            return UserStore(accessGroup: accessGroup, apiKey: options.apiKey)
        #endif
    }

    /// The file that remembers the access group chosen with `useUserAccessGroup(_:)` across launches (FirebaseAuth
    /// keeps it in its own user defaults).
    var accessGroupFile: URL {
        (storeDirectory ?? UserStore.defaultDirectory).appendingPathComponent(
            "firebase_auth_\(UserStore.safe(flintApp.name))_\(UserStore.safe(flintApp.options.apiKey))_access_group")
    }

    /// The access group remembered by an earlier `useUserAccessGroup(_:)`, if any.
    func rememberedAccessGroup() -> String? {
        (try? String(contentsOf: accessGroupFile, encoding: .utf8)).flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The user the store holds, as a `User` of this `Auth`, if one is stored and readable.
    func storedUser() -> User? {
        user(in: store)
    }

    /// The user `store` holds, as a `User` of this `Auth`.
    func user(in store: any UserStorage) -> User? {
        store.load().map { User(profile: $0.profile, tokens: $0.tokens, backend: backend, auth: self) }
    }

    /// A token of `user` was handed out: turns the automatic refresh on, for `user` when it is the current user.
    func tokenWasHandedOut(by user: User) {
        guard currentUser === user else { return }
        autoRefresh.tokenHandedOut(by: user, auth: self)
    }
}
