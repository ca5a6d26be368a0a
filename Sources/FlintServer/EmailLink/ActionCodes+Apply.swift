import FlintCore
import FlintStore
import FlintTexts

/// Using an action code: verifying an email, resetting a password, and (in ActionCodes+ChangeEmail.swift) changing
/// or recovering an email. Each spends its code and writes the account in one transaction.
extension ActionCodes {
    /// `applyActionCode` (VERIFY_EMAIL, VERIFY_AND_CHANGE_EMAIL, RECOVER_EMAIL) and `confirmPasswordReset` through
    /// `accounts:update`.
    func applyActionCode(_ code: String, password: String?, locales: [String] = []) async throws -> UpdateAccountResponse {
        let record = try await peekOobCode(code, expecting: [.verifyEmail, .passwordReset, .verifyAndChangeEmail, .recoverEmail])
        if record.requestType == .verifyAndChangeEmail {
            return UpdateAccountResponse(try await applyEmailChange(code: code, locales: locales))
        }
        if record.requestType == .recoverEmail {
            return UpdateAccountResponse(try await applyEmailRecovery(code: code))
        }
        if record.requestType == .passwordReset {
            guard let hash = try await passwords.strongHash(password, rules: node.config.current.newPasswordRules) else {
                throw AuthError.missingPassword
            }
            return UpdateAccountResponse(try await applyPasswordReset(code: code, hash: hash))
        }
        return UpdateAccountResponse(try await applyEmailVerification(code: code))
    }

    /// Uses a `VERIFY_EMAIL` code: the account's email, if it is still the one the link was sent to, is verified.
    func applyEmailVerification(code: String) async throws -> UserRecord {
        let now = node.clock.now()
        let result = try await node.store.write { [self] tx in
            try await verifyEmail(code: code, in: tx, now: now)
        }
        return try result.get()
    }

    /// The verification's transaction.
    private func verifyEmail(code: String, in tx: some Writes, now: Instant) async throws -> Result<UserRecord, AuthError> {
        var user: UserRecord
        switch try await ActionCodes.useForAccount(code, as: .verifyEmail, sameEmail: true, in: tx, now: now) {
        case .failure(let error): return .failure(error)
        case .success(let used): user = used.user
        }
        if !user.emailVerified {
            // The owner read the link: identities attached before the address was proven go, and sessions end.
            if try await Sessions.ownerProvedEmail(of: &user, cleanup: .identities, in: tx) {
                try await sessions.revokeSessions(of: &user, in: tx, now: now)
            }
            user.emailVerified = true
            try await tx.updateUser(user)
        }
        return .success(user)
    }

    /// Uses a reset code and stores the new password hash; every earlier session of the account is revoked.
    /// Following the emailed link proves the address, so the email becomes verified.
    func applyPasswordReset(code: String, hash: String) async throws -> UserRecord {
        let now = node.clock.now()
        let result = try await node.store.write { [self] tx in
            try await resetPassword(code: code, hash: hash, in: tx, now: now)
        }
        return try result.get()
    }

    /// The reset's transaction.
    private func resetPassword(code: String, hash: String, in tx: some Writes, now: Instant) async throws -> Result<UserRecord, AuthError> {
        var user: UserRecord
        switch try await ActionCodes.useForAccount(code, as: .passwordReset, sameEmail: true, in: tx, now: now) {
        case .failure(let error): return .failure(error)
        case .success(let used): user = used.user
        }
        if !user.emailVerified {
            // The reset proves the address: identities attached before it was proven go (sessions end below).
            _ = try await Sessions.ownerProvedEmail(of: &user, cleanup: .identities, in: tx)
        }
        user.passwordHash = hash
        user.passwordUpdatedAt = now
        user.emailVerified = true
        try await sessions.revokeSessions(of: &user, in: tx, now: now)
        try await tx.updateUser(user)
        // A reset lifts the address's lock (`flint.accountLockout`), as Firebase's refusal of a locked account says.
        if let email = user.email { _ = try await tx.clearAccountFailures(tenant: user.tenant, email: email) }
        try await tx.audit(.passwordReset, uid: user.localID, at: now)
        return .success(user)
    }
}
