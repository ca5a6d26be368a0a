import FlintCore
import FlintStore

/// Revoking sessions, exactly: whatever revokes (a credential change, an email-link takeover, an operator's
/// `validSince`, disabling, a second-factor change) deletes the account's refresh tokens in the store and bumps its
/// revocation generation, which every ID token carries. A token minted before the revocation — in the same second
/// too — is refused; one minted after it (in the same transaction, or later) works.
extension Sessions {
    /// Ends every session of `user` minted before now: `validSince` becomes now, the revocation generation moves on
    /// and the refresh tokens are deleted. The caller writes `user` back in the same transaction.
    func revokeSessions(of user: inout UserRecord, in tx: any TokensWrites & AuditWrites, now: Instant) async throws {
        user.validSince = now.wholeSecond
        user.revocationGeneration += 1
        _ = try await tx.deleteRefreshTokens(tenant: .scoped, localID: user.localID, createdBefore: nil)
        try await tx.audit(.sessionsRevoked, uid: user.localID, at: now, ["validSince": .string(String(user.validSince.secondsSince1970))])
    }

    /// An operator's `validSince` (a whole second): sessions minted before it end. A value at or after the current second
    /// (the Admin SDKs' `revokeRefreshTokens` sends the current second) revokes everything minted until now, exactly;
    /// an earlier value ends the refresh tokens created before that second.
    func revokeSessions(of user: inout UserRecord, before validSince: Instant, in tx: any TokensWrites & AuditWrites, now: Instant) async throws {
        if validSince >= now.wholeSecond {
            try await revokeSessions(of: &user, in: tx, now: now)
        } else {
            _ = try await tx.deleteRefreshTokens(tenant: .scoped, localID: user.localID, createdBefore: validSince)
            try await tx.audit(.sessionsRevoked, uid: user.localID, at: now, ["validSince": .string(String(validSince.secondsSince1970))])
        }
        user.validSince = validSince
    }
}
