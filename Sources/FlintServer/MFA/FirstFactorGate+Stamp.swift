import FlintCore
import FlintStore

extension FirstFactorGate {
    /// Stamps a first-factor sign-in on `user` before the flow writes its row: `lastLoginAt`, and `lastRefreshAt`
    /// when the gate answers tokens (Firebase sets it whenever it mints tokens), so the sign-in's own write carries
    /// both and costs no extra statement.
    func stamp(_ user: inout UserRecord, now: Instant) {
        user.lastLoginAt = now
        if case .tokens = decision { user.lastRefreshAt = now }
    }

    /// Records a sign-in on an account the flow does not otherwise rewrite: one statement, which also sets
    /// `lastRefreshAt` when the gate answers tokens.
    func recordSignIn(_ user: inout UserRecord, in tx: any UsersWrites & UserListingWrites, now: Instant) async throws {
        stamp(&user, now: now)
        if case .tokens = decision {
            try await tx.recordSession(tenant: .scoped, localID: user.localID, at: now)
        } else {
            try await tx.recordSignIn(tenant: .scoped, localID: user.localID, at: now)
        }
    }
}
