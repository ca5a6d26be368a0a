import FlintCore
import FlintStore

/// The account lockout of one email address's password sign-ins (`flint.accountLockout`): its failures in a row,
/// from any client address, are a counter counted with the sign-in's own failure limits (the same statement), so a
/// sign-in of an address without failures costs nothing more; its lock (`account_locks`) is read only once the count
/// has reached the policy's `maxFailures`. The address (in its tenant) is the key whether or not an account has it, so
/// a locked address tells nothing of an account, and another tenant's failures never lock it.
struct PasswordLockout: Sendable {
    let policy: ProjectConfig.AccountLockout
    let tenant: TenantID
    let email: String

    /// What a try learnt when it was counted.
    enum Admission {
        /// Let through to the password check, after this many failures in a row.
        case admitted(priorFailures: Int64)
        /// Refused without a check.
        case refused(AuthError)
    }

    /// The count's one window (from the epoch), kept `memory` past this try.
    func hitWindow(_ now: Instant) -> (key: CounterKey, windowStart: Instant, expiresAt: Instant) {
        (.accountFailures(tenant: tenant, email: email), .epoch, now + policy.memory)
    }

    /// The count's window, as a release names it.
    var window: (key: CounterKey, windowStart: Instant) { (.accountFailures(tenant: tenant, email: email), .epoch) }

    /// Counts a try on `limits` and on the address's failures in a row, in one statement; refuses it past a limit
    /// (`TOO_MANY_ATTEMPTS_TRY_LATER`) or while the address is locked (the same code, in Firebase's words for a locked
    /// account), giving the lockout's hit back so a refused try does not lengthen the lock.
    static func admit(
        _ limits: [Limit], _ lockout: PasswordLockout?, in tx: some CountersWrites & AuditWrites, now: Instant
    ) async throws -> Admission {
        guard let lockout else {
            return try await limits.count(in: tx, now: now) ? .refused(.tooManyAttempts) : .admitted(priorFailures: 0)
        }
        let (over, totals) = try await limits.count(in: tx, now: now, along: [lockout.hitWindow(now)])
        let prior = (totals.first ?? 1) - 1
        var refusal: AuthError? = over ? .tooManyAttempts : nil
        if refusal == nil, prior >= lockout.policy.maxFailures,
            let lock = try await tx.accountLocks(tenant: lockout.tenant, emails: [lockout.email]).first, lock.holds(at: now)
        {
            refusal = .accountLocked
        }
        guard let refusal else { return .admitted(priorFailures: prior) }
        try await tx.releaseCounters([lockout.window])
        return .refused(refusal)
    }

    /// Records a failed try that was admitted after `priorFailures`: past the policy's count, the address is locked
    /// (for longer after each failure) and an `ACCOUNT_LOCKED` event names it and its account, if any. Nothing is
    /// written below the count: the try's hit stays counted as a failure.
    func recordFailure(after priorFailures: Int64, localID: String?, in tx: some CountersWrites & AuditWrites, now: Instant) async throws {
        let failures = priorFailures + 1
        guard let length = policy.lock(afterFailures: failures) else { return }
        let lock = AccountLock(tenant: tenant, email: email, failures: failures, lockedAt: now, lockedUntil: now + length)
        try await tx.lockAccount(lock)
        try await tx.audit(
            .accountLocked, uid: localID, at: now,
            ["email": .string(email), "failures": .number(Double(failures)), "lockedUntil": .string(RFC3339.format(lock.lockedUntil))])
    }

    /// Whether a failed try after `priorFailures` writes a lock (so the flow opens a transaction only then).
    func locks(after priorFailures: Int64) -> Bool { policy.lock(afterFailures: priorFailures + 1) != nil }
}
