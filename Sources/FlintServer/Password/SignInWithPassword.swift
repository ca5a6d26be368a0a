import FlintCore
import FlintStore
import Hummingbird

/// `accounts:signInWithPassword` (v1) and `relyingparty/verifyPassword` (v3).
struct SignInWithPasswordRequest: Decodable {
    var email: String?
    var password: String?
    /// Checked for its type only.
    var returnSecureToken: Bool?
}

/// The answer: the session's tokens, or — for an account with second factors — `mfaPendingCredential` and the
/// `mfaInfo` hints instead.
typealias SignInWithPasswordResponse = SignInReply<PasswordSignInFields>

/// `signInWithPassword`'s own fields.
struct PasswordSignInFields: Encodable, Sendable {
    var kind = "identitytoolkit#VerifyPasswordResponse"
    var localId: String
    var email: String
    var displayName: String?
    var registered = true
    /// The requirements of the project's password policy the password misses (Identity Platform's notify mode);
    /// absent when there is no policy or the password meets it.
    var userNotifications: [UserNotification]?
}

/// One `userNotifications` entry: a requirement of the password policy the password misses.
struct UserNotification: Encodable, Sendable {
    var notificationCode: String
    var notificationMessage: String

    init(_ requirement: PasswordPolicy.Requirement) {
        (notificationCode, notificationMessage) = (requirement.notificationCode, requirement.message)
    }
}

extension PasswordFlow {
    /// Checks the password on the hashing pool. Unknown email and wrong password are one answer,
    /// `INVALID_LOGIN_CREDENTIALS`, and take as long (a decoy hash is checked). Failures count per email and per
    /// client IP; past either limit the answer is `TOO_MANY_ATTEMPTS_TRY_LATER` without checking. With the account
    /// lockout on (``PasswordLockout``), failures in a row from any address lock the email address for a while, and
    /// a locked address is answered `TOO_MANY_ATTEMPTS_TRY_LATER` too, whether an account has it or not.
    func signInWithPassword(_ wire: SignInWithPasswordRequest, clientIP: String?) async throws -> SignInWithPasswordResponse {
        guard node.config.current.emailSignInEnabled else { throw AuthError.passwordLoginDisabled }
        let email = try EmailAddress.wire(wire.email)
        guard let password = wire.password, !password.isEmpty else { throw AuthError.missingPassword }
        let limits = passwordFailureLimits(email: email, clientIP: clientIP)
        let lockout = node.config.current.accountLockout.map { PasswordLockout(policy: $0, tenant: .scoped, email: email) }
        // Each try reserves a failure slot before the password is checked (so parallel guesses cannot slip past the
        // limit); a right password gives it back.
        let start = node.clock.now()
        let prior: Int64
        switch try await node.store.write({ tx in try await PasswordLockout.admit(limits, lockout, in: tx, now: start) }) {
        case .refused(let error): throw error
        case .admitted(let failures): prior = failures
        }
        let found = try await node.store.read { reader in try await reader.user(tenant: .scoped, email: email) }
        AuditOrigin.current.notes.subject = found?.localID
        guard try await passwords.verify(password, against: found?.passwordHash), let user = found, let stored = user.passwordHash else {
            if let lockout, lockout.locks(after: prior) {
                let now = node.clock.now()
                try await node.store.write { tx in try await lockout.recordFailure(after: prior, localID: found?.localID, in: tx, now: now) }
            }
            throw AuthError.invalidLoginCredentials
        }
        guard !user.disabled else { throw AuthError.userDisabled }
        // A hash made with other parameters (the operator changed the cost), or an imported one, is replaced with
        // Flint's own while the password is at hand, whether the sign-in ends here or asks for a second factor.
        let rehash = PasswordHash.parameters(of: stored) == passwords.parameters ? nil : try await passwords.hash(password)
        let now = node.clock.now()
        let policy = node.config.current.passwordPolicy
        let missing = policy?.unmet(password) ?? []
        let release = Release(limits: limits, lockout: lockout, priorFailures: prior, reservedAt: start)
        let outcome = try await node.store.write { [self] tx in
            try await completeSignIn(user, checked: stored, rehash: rehash, policy: policy, missing: missing, releasing: release, in: tx, now: now)
        }
        let (account, _, session) = try gate.answer(outcome, provider: "password", now: now)
        return SignInWithPasswordResponse(
            fields: PasswordSignInFields(
                localId: account.localID, email: email, displayName: account.displayName,
                userNotifications: missing.isEmpty ? nil : missing.map(UserNotification.init)),
            session: session)
    }

    /// What a right password gives back: the failure slots its try reserved, and the address's failures in a row.
    private struct Release {
        var limits: [Limit]
        var lockout: PasswordLockout?
        var priorFailures: Int64
        var reservedAt: Instant

        /// One statement for the slots; the failures in a row and a lock are forgotten only when there were some.
        func apply(in tx: some CountersWrites) async throws {
            try await limits.release(in: tx, reservedAt: reservedAt, along: lockout.map { [$0.window] } ?? [])
            if let lockout, priorFailures > 0 { _ = try await tx.clearAccountFailures(tenant: lockout.tenant, email: lockout.email) }
        }
    }

    /// The sign-in's transaction, after the password matched: gives the failure slots back, then signs the account in
    /// through the gate if it still has the checked password.
    private func completeSignIn(
        _ user: UserRecord, checked stored: String, rehash: String?, policy: PasswordPolicy?, missing: [PasswordPolicy.Requirement],
        releasing release: Release, in tx: some Writes, now: Instant
    ) async throws -> SignInOutcome {
        try await release.apply(in: tx)
        // A right password that falls short of an enforced policy with forced upgrade opens no session.
        if let policy, policy.enforced, policy.forceUpgradeOnSignin, !missing.isEmpty {
            return .failed(.passwordDoesNotMeetRequirements(missing))
        }
        // The account is re-read under its lock: a password removed or changed (or the account disabled) since it
        // was checked gives no session, so no session outlives a revocation that committed in between.
        guard var current = try await tx.lockedUser(tenant: .scoped, localID: user.localID), current.passwordHash == stored else {
            return .failed(.invalidLoginCredentials)
        }
        guard !current.disabled else { return .failed(.userDisabled) }
        let verdict = try await gate.firstFactorGate(tx, localID: current.localID, provider: "password")
        let signedIn = if case .tokens = verdict.decision { true } else { false }
        if signedIn { verdict.stamp(&current, now: now) }
        if let rehash {
            current.passwordHash = rehash
            try await tx.updateUser(current)
        } else if signedIn {
            try await tx.recordSession(tenant: .scoped, localID: current.localID, at: now)
        }
        return try await gate.pass(verdict, tx, user: current, provider: "password", isNew: false, now: now)
    }

    /// The failure limits of a password sign-in: per email address and per client IP.
    func passwordFailureLimits(email: String, clientIP: String?) -> [Limit] {
        let window = node.settings.passwordFailureWindow
        var limits = [Limit(key: .passwordFailures(tenant: .scoped, email: email), max: node.settings.passwordFailuresPerAccount, window: window)]
        if let clientIP { limits.append(Limit(key: .passwordFailures(clientIP: clientIP), max: node.settings.passwordFailuresPerIP, window: window)) }
        return limits
    }
}
