import FlintCore
import FlintStore

/// New accounts per client IP and hour (Firebase documents 100), counted on the shared counters by every flow
/// that creates an account: sign-up, anonymous sign-in, a first phone or email-link sign-in.
struct AccountCreationLimit: Sendable {
    /// Accounts an address may create per hour; 0 turns the limit off.
    let perHour: Int64

    /// Counts a new account for `clientIP` inside `tx`: `false` when the address is past the limit (the caller
    /// answers `TOO_MANY_ATTEMPTS_TRY_LATER` and creates nothing). Always `true` without a client address or with
    /// the limit off.
    func allows(_ clientIP: String?, in tx: any CountersWrites & AuditWrites, now: Instant) async throws -> Bool {
        guard let clientIP, perHour > 0 else { return true }
        let limit = Limit(key: .newAccounts(clientIP: clientIP), max: perHour, window: .seconds(3600))
        return !(try await [limit].count(in: tx, now: now))
    }
}

extension AccountCreationLimit {
    /// The account an email first factor writes to, inside `tx`: the user of `token` when the request links to a
    /// signed-in account (checked as ``Sessions/tokenUser(_:in:)`` checks it), else `owner`, else a new account
    /// with `newID` when ``allows(_:in:now:)`` lets `clientIP` create one.
    /// - Returns: the account and whether it is new, or the error to answer with (nothing was written then).
    func account(
        linking token: VerifiedIDToken?, sessions: Sessions, owner: UserRecord? = nil, newID: String, clientIP: String?,
        in tx: any CountersWrites & AuditWrites & UsersWrites & TokensReads, now: Instant
    ) async throws -> Result<(user: UserRecord, isNew: Bool), AuthError> {
        if let token { return try await sessions.tokenUser(token, in: tx).map { ($0, false) } }
        if let owner { return .success((owner, false)) }
        guard try await allows(clientIP, in: tx, now: now) else { return .failure(.tooManyAttempts) }
        return .success((UserRecord(tenant: .scoped, localID: newID, createdAt: now, validSince: now.wholeSecond), true))
    }
}
