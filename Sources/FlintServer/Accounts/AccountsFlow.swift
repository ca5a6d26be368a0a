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
}
