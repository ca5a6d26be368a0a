public import Foundation

/// Changes to a user's display name and photo URL, sent together by `commitChanges()` (as FirebaseAuth's
/// `UserProfileChangeRequest`, made by `User.createProfileChangeRequest()`). Properties left `nil` are not changed.
public final class UserProfileChangeRequest: Sendable {
    private struct State: Sendable {
        var displayName: String?
        var photoURL: URL?
        var committed = false
        let user: User
    }

    private let state: Locked<State>

    init(user: User) { state = Locked(State(user: user)) }

    /// The new display name, or `nil` to keep the current one.
    public var displayName: String? {
        get { state.current.displayName }
        set { state.withLock { $0.displayName = newValue } }
    }

    /// The new photo URL, or `nil` to keep the current one.
    public var photoURL: URL? {
        get { state.current.photoURL }
        set { state.withLock { $0.photoURL = newValue } }
    }

    /// Sends the changes (`accounts:update` with the ID token), then reloads and stores the user. A request can be
    /// committed once, as in FirebaseAuth.
    /// - Throws: `internalError` when committed twice (FirebaseAuth stops the app there); `userTokenExpired`,
    ///   `invalidUserToken`, `userNotFound`, `networkError` and the server's errors.
    public func commitChanges() async throws {
        let (name, photo, user, alreadyCommitted) = state.withLock { state -> (String?, URL?, User, Bool) in
            defer { state.committed = true }
            return (state.displayName, state.photoURL, state.user, state.committed)
        }
        if alreadyCommitted {
            throw AuthErrorCode.internalError.error(detail: "This profile change request was already committed.")
        }
        guard name != nil || photo != nil else { return }
        try await user.updateAccount(SetAccountInfoRequest(displayName: name, photoUrl: photo?.absoluteString))
    }

    /// Sends the changes and calls `completion` with the error, if any.
    public func commitChanges(completion: (((any Error)?) -> Void)? = nil) {
        deliver(completion) { try await self.commitChanges() }
    }
}
