import FlintCore
package import FlintStore

/// Operators' view of the account lockout (`flint.accountLockout`, ``PasswordLockout``): an account's lock, found by
/// its email address, and its unlock, the same for the admin API, `flint users unlock` and the console.
package struct AccountLocks: Sendable {
    let node: Node

    /// The lockout actions on `node`'s store.
    package init(node: Node) { self.node = node }

    /// An account's lockout as operators see it.
    package struct State: Sendable, Encodable {
        package var localId: String
        package var email: String?
        /// Whether the account's email address is locked now.
        package var locked: Bool
        /// When the lock ends (RFC 3339), while it holds.
        package var lockedUntil: String?
        /// The failures in a row that locked it, while it holds.
        package var failures: Int64?
    }

    /// The locks holding now of `users`' addresses (accounts of one tenant), by local ID (one read for the whole list).
    package func held(of users: [UserRecord]) async throws -> [String: AccountLock] {
        let emails = users.compactMap(\.email)
        guard let tenant = users.first?.tenant, !emails.isEmpty else { return [:] }
        let now = node.clock.now()
        let locks = try await node.store.read { try await $0.accountLocks(tenant: tenant, emails: emails) }.filter { $0.holds(at: now) }
        let byEmail = Dictionary(locks.map { ($0.email, $0) }, uniquingKeysWith: { first, _ in first })
        var out: [String: AccountLock] = [:]
        for user in users { if let email = user.email, let lock = byEmail[email] { out[user.localID] = lock } }
        return out
    }

    /// The account `localID`'s lockout.
    /// - Throws: `USER_NOT_FOUND` for an unknown account.
    package func state(of localID: String) async throws -> State {
        guard let user = try await node.store.read({ try await $0.user(tenant: .scoped, localID: localID) }) else { throw AuthError.userNotFound }
        return Self.state(user, lock: try await held(of: [user])[localID])
    }

    /// Lifts the account `localID`'s lock and forgets its failures in a row, and records an `ACCOUNT_UNLOCKED` event
    /// (by the request's actor) when it was locked; an account that was not is left as it is, unaudited.
    /// - Returns: the lockout before the unlock.
    /// - Throws: `USER_NOT_FOUND` for an unknown account.
    package func unlock(_ localID: String) async throws -> State {
        let now = node.clock.now()
        let result: Result<State, AuthError> = try await node.store.write { tx in
            guard let user = try await tx.user(tenant: .scoped, localID: localID) else { return .failure(.userNotFound) }
            guard let email = user.email, let lock = try await tx.clearAccountFailures(tenant: user.tenant, email: email), lock.holds(at: now) else {
                return .success(Self.state(user, lock: nil))
            }
            try await tx.audit(.accountUnlocked, uid: localID, at: now, ["email": .string(email)])
            return .success(Self.state(user, lock: lock))
        }
        return try result.get()
    }

    /// The lockout of `user` under `lock` (one that holds, or none).
    static func state(_ user: UserRecord, lock: AccountLock?) -> State {
        State(
            localId: user.localID, email: user.email, locked: lock != nil, lockedUntil: lock.map { RFC3339.format($0.lockedUntil) },
            failures: lock?.failures)
    }
}

extension Flows {
    /// The operators' account lockout actions.
    package var accountLocks: AccountLocks { AccountLocks(node: node) }
}
