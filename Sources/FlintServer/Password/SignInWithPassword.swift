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
    /// client IP; past either limit the answer is `TOO_MANY_ATTEMPTS_TRY_LATER` without checking.
    func signInWithPassword(_ wire: SignInWithPasswordRequest, clientIP: String?) async throws -> SignInWithPasswordResponse {
        guard node.config.current.emailSignInEnabled else { throw AuthError.passwordLoginDisabled }
        let email = try EmailAddress.wire(wire.email)
        guard let password = wire.password, !password.isEmpty else { throw AuthError.missingPassword }
        let limits = passwordFailureLimits(email: email, clientIP: clientIP)
        // Each try reserves a failure slot before the password is checked (so parallel guesses cannot slip past the
        // limit); a right password gives it back.
        let start = node.clock.now()
        if try await node.store.write({ tx in try await limits.count(in: tx, now: start) }) { throw AuthError.tooManyAttempts }
        let found = try await node.store.read { reader in try await reader.user(tenant: .default, email: email) }
        AuditOrigin.current.notes.subject = found?.localID
        guard try await passwords.verify(password, against: found?.passwordHash), let user = found, let stored = user.passwordHash else {
            throw AuthError.invalidLoginCredentials
        }
        guard !user.disabled else { throw AuthError.userDisabled }
        // A hash made with other parameters (the operator changed the cost), or an imported one, is replaced with
        // Flint's own while the password is at hand, whether the sign-in ends here or asks for a second factor.
        let rehash = PasswordHash.parameters(of: stored) == passwords.parameters ? nil : try await passwords.hash(password)
        let now = node.clock.now()
        let policy = node.config.current.passwordPolicy
        let missing = policy?.unmet(password) ?? []
        let outcome = try await node.store.write { [self] tx in
            try await completeSignIn(
                user, checked: stored, rehash: rehash, policy: policy, missing: missing, releasing: limits, reservedAt: start, in: tx, now: now)
        }
        let (account, _, session) = try gate.answer(outcome, provider: "password", now: now)
        return SignInWithPasswordResponse(
            fields: PasswordSignInFields(
                localId: account.localID, email: email, displayName: account.displayName,
                userNotifications: missing.isEmpty ? nil : missing.map(UserNotification.init)),
            session: session)
    }

    /// The sign-in's transaction, after the password matched: gives the failure slots back, then signs the account in
    /// through the gate if it still has the checked password.
    private func completeSignIn(
        _ user: UserRecord, checked stored: String, rehash: String?, policy: PasswordPolicy?, missing: [PasswordPolicy.Requirement],
        releasing limits: [Limit], reservedAt start: Instant, in tx: some Writes, now: Instant
    ) async throws -> SignInOutcome {
        try await limits.release(in: tx, reservedAt: start)
        // A right password that falls short of an enforced policy with forced upgrade opens no session.
        if let policy, policy.enforced, policy.forceUpgradeOnSignin, !missing.isEmpty {
            return .failed(.passwordDoesNotMeetRequirements(missing))
        }
        // The account is re-read under its lock: a password removed or changed (or the account disabled) since it
        // was checked gives no session, so no session outlives a revocation that committed in between.
        guard var current = try await tx.lockedUser(tenant: .default, localID: user.localID), current.passwordHash == stored else {
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
            try await tx.recordSession(tenant: .default, localID: current.localID, at: now)
        }
        return try await gate.pass(verdict, tx, user: current, provider: "password", isNew: false, now: now)
    }

    /// The failure limits of a password sign-in: per email address and per client IP.
    func passwordFailureLimits(email: String, clientIP: String?) -> [Limit] {
        let window = node.settings.passwordFailureWindow
        var limits = [Limit(key: .passwordFailures(tenant: .default, email: email), max: node.settings.passwordFailuresPerAccount, window: window)]
        if let clientIP { limits.append(Limit(key: .passwordFailures(clientIP: clientIP), max: node.settings.passwordFailuresPerIP, window: window)) }
        return limits
    }
}
