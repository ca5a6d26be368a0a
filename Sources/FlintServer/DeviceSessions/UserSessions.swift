import FlintCore
package import FlintStore

/// An account's sessions, one per refresh token (Flint's; Firebase lists none): what its owner, the admin API, the CLI
/// and the console list and end. Ending a session deletes its refresh token, so its next refresh is refused on every
/// node at once, and its ID tokens (which name it in `firebase.session_id`) from their next check where Flint checks
/// revocation (``Sessions/authenticate(idToken:)``, ``Sessions/tokenUser(_:in:)``).
package struct UserSessions: Sendable {
    let sessions: Sessions

    var node: Node { sessions.node }

    /// Who ends a session, as its audit event says (`detail.by`).
    package enum Ender: String, Sendable {
        case owner, `operator`
    }

    /// The account's live sessions, most recently used first: those the lifetimes (`flint.sessions`) already refuse
    /// are left out. `USER_NOT_FOUND` for an unknown account.
    package func list(localID: String) async throws -> [RefreshTokenRecord] {
        let found = try await node.store.read { tx -> [RefreshTokenRecord]? in
            guard try await tx.user(tenant: .scoped, localID: localID) != nil else { return nil }
            return try await tx.sessions(tenant: .scoped, localID: localID)
        }
        guard let found else { throw AuthError.userNotFound }
        let lifetimes = node.config.current.sessionLifetimes
        let now = node.clock.now()
        return found.filter { lifetimes.allow(signedIn: $0.authTime, lastUsed: $0.lastUsedAt, now: now) }
    }

    /// Ends the account's session `sessionID`, audited as `SESSION_ENDED`: `SESSION_NOT_FOUND` when it has none by
    /// that ID.
    package func end(localID: String, sessionID: String, by ender: Ender) async throws {
        let now = node.clock.now()
        let ended = try await node.store.write { tx in
            guard try await tx.deleteSession(tenant: .scoped, localID: localID, sessionID: sessionID) else { return false }
            try await tx.audit(.sessionEnded, uid: localID, at: now, ["session": .string(sessionID), "by": .string(ender.rawValue)])
            return true
        }
        guard ended else { throw AuthError.sessionNotFound }
    }

    /// An operator's end of a session: `USER_NOT_FOUND` for an unknown account, else as ``end(localID:sessionID:by:)``.
    package func endForOperator(localID: String, sessionID: String) async throws {
        guard try await node.store.read({ try await $0.user(tenant: .scoped, localID: localID) }) != nil else { throw AuthError.userNotFound }
        try await end(localID: localID, sessionID: sessionID, by: .operator)
    }

    /// Ends every session of the account but `current` ("sign out everywhere else"), audited as `OTHER_SESSIONS_ENDED`
    /// when any went; how many did.
    package func endOthers(localID: String, keeping current: String, by ender: Ender) async throws -> Int {
        let now = node.clock.now()
        return try await node.store.write { tx in
            let count = try await tx.deleteSessions(tenant: .scoped, localID: localID, except: current)
            if count > 0 {
                try await tx.audit(
                    .otherSessionsEnded, uid: localID, at: now,
                    ["kept": .string(current), "count": .number(Double(count)), "by": .string(ender.rawValue)])
            }
            return count
        }
    }
}
