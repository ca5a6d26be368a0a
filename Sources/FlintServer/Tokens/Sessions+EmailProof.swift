import FlintCore
import FlintStore

/// What proving an account's email removes besides the other sessions.
enum EmailProofCleanup: Sendable {
    /// The federated identities only: the owner followed a verification or reset link, or an operator vouched for
    /// the address; the account's password and number are the owner's to keep (a reset replaces the password).
    case identities
    /// Everything a sign-in method attached: the password, the phone number and the federated identities (an email
    /// link sign-in into an account whose address nobody had proven).
    case everything
}

extension Sessions {
    /// The owner of `user`'s email proved it while the account held it unverified (email link sign-in, a
    /// `VERIFY_EMAIL` or `PASSWORD_RESET` code, an operator setting `emailVerified`): nobody had proven the address
    /// before, so an unverified email a provider asserted never made its holder the owner. Every federated identity is
    /// unlinked — an identity whose provider had verified this address would have verified the account already, so
    /// none of them vouches for it — and `cleanup` says what else goes.
    ///
    /// Call it in the transaction that marks the email verified, before the account is written.
    /// - Returns: whether anything was removed: the caller then ends every other session (``revokeSessions(of:in:now:)``,
    ///   once, with whatever else its change revokes for). An account with nothing to remove keeps its sessions (a user
    ///   verifying the address they signed up with stays signed in).
    static func ownerProvedEmail(of user: inout UserRecord, cleanup: EmailProofCleanup, in tx: any UsersWrites) async throws -> Bool {
        let providers = try await tx.federatedIdentities(tenant: .scoped, localID: user.localID).map(\.providerID)
        let attached = cleanup == .everything && (user.passwordHash != nil || user.phoneNumber != nil)
        guard attached || !providers.isEmpty else { return false }
        if !providers.isEmpty { _ = try await tx.unlinkFederatedIdentities(tenant: .scoped, localID: user.localID, providerIDs: providers) }
        if cleanup == .everything {
            user.passwordHash = nil
            user.passwordUpdatedAt = nil
            user.phoneNumber = nil
        }
        return true
    }
}
