import Foundation

extension Auth {
    /// The access group the signed-in user is shared through (set by `useUserAccessGroup(_:)`), `nil` when the user
    /// is the app's own.
    public var userAccessGroup: String? { sharing.current.accessGroup }

    /// Whether a user stored in an access group syncs to the user's other devices through iCloud Keychain. Set it
    /// before `useUserAccessGroup(_:)`; without an access group it has no effect (as in FirebaseAuth). On Linux the
    /// access-group file is local, so it changes nothing there.
    public var shareAuthStateAcrossDevices: Bool {
        get { sharing.current.shareAcrossDevices }
        set { sharing.withLock { $0.shareAcrossDevices = newValue } }
    }

    /// The domain the web challenge of phone sign-in is loaded from instead of the project's `firebaseapp.com`
    /// domain (a Flint `baseURL` or emulator still wins, as the emulator does in FirebaseAuth).
    public var customAuthDomain: String? {
        get { sharing.current.customAuthDomain }
        set { sharing.withLock { $0.customAuthDomain = newValue } }
    }

    /// Shares the signed-in user through `accessGroup` (a Keychain access group on Apple platforms, so app
    /// extensions and the team's other apps see the same user; a shared file on Linux): the user stored there
    /// becomes the current user (signed out when there is none), later sign-ins are stored there, and the choice is
    /// remembered across launches. Moving from the app's own store to a group forgets the app's own copy. `nil`
    /// goes back to the app's own store.
    /// - Throws: `keychainError` when the choice cannot be remembered.
    public func useUserAccessGroup(_ accessGroup: String?) throws {
        let newStore = store(forAccessGroup: accessGroup)
        do {
            if let accessGroup {
                try FileManager.default.createDirectory(at: accessGroupFile.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(accessGroup.utf8).write(to: accessGroupFile, options: .atomic)
            } else if FileManager.default.fileExists(atPath: accessGroupFile.path) {
                try FileManager.default.removeItem(at: accessGroupFile)
            }
        } catch {
            throw AuthErrorCode.keychainError.error(userInfo: [NSUnderlyingErrorKey: error])
        }
        let user = user(in: newStore)
        let oldStore = sharing.withLock { sharing -> (any UserStorage)? in
            let old = sharing.accessGroup == nil && accessGroup != nil ? sharing.store : nil
            sharing.store = newStore
            sharing.accessGroup = accessGroup
            return old
        }
        oldStore?.remove()
        let previous = state.withLock { state -> User? in
            defer { state.currentUser = user }
            return state.currentUser
        }
        if previous !== user {
            if let user { autoRefresh.currentUserChanged(to: user, auth: self) } else { autoRefresh.stop() }
            notifyListeners()
        }
    }

    /// The user stored in `accessGroup` (`nil` for the app's own store), as a `User` of this instance, without
    /// making it current; `nil` when none is stored.
    public func getStoredUser(forAccessGroup accessGroup: String?) throws -> User? {
        user(in: store(forAccessGroup: accessGroup))
    }
}
