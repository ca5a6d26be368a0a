import FlintCore
import FlintStore

/// An account as its user and operators see it: `lookup`, `update` (profile, credentials, operator fields, action
/// codes) and `delete`.
package struct AccountsFlow: Sendable {
    /// What it runs on: settings, project config, store, clock, randomness, logger.
    let node: Node
    package let passwords: PasswordHasher
    let codes: ActionCodes
    let sessions: Sessions

    /// The store aggregates its transactions touch: accounts with their identities, second factors (an operator's
    /// with `replaceMFAEnrollments`) and passkeys, refresh tokens, the audit log.
    typealias Writes = UsersWrites & UserListingWrites & SecondFactorsWrites & PasskeysWrites & TokensWrites & AuditWrites
    /// What a lookup reads: accounts with their identities, second factors and passkeys.
    typealias Reads = UsersReads & SecondFactorsReads & PasskeysReads
}
