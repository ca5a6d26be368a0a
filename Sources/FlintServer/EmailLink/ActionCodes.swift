import FlintCore
import FlintStore
import Logging

/// Out-of-band codes (`oobCode`): issuing them with their link and email, handing the email to the provider, and
/// using them — email-link sign-in, email verification, password reset, email change and recovery.
package struct ActionCodes: Sendable {
    /// What it runs on: settings, project config, store, clock, randomness, logger.
    let node: Node
    let email: any EmailSender
    /// Hashes the new password of a reset made through `accounts:update`.
    let passwords: PasswordHasher
    /// A changed email or password ends the account's sessions.
    let sessions: Sessions

    /// The store aggregates its transactions touch: the codes, their emails (the outbox), accounts, refresh tokens,
    /// the senders' counters, the audit log.
    typealias Writes = OobCodesWrites & OutboxWrites & UsersWrites & TokensWrites & CountersWrites & AuditWrites
}
