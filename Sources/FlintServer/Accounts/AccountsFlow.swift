import FlintCore
import FlintStore

/// An account as its user and operators see it: `lookup`, `update` (profile, credentials, operator fields, action
/// codes) and `delete`.
struct AccountsFlow: Sendable {
    let settings: ServerSettings
    let config: ConfigCache
    let store: any AuthStore
    let clock: any WallClock
    let passwords: PasswordHasher
    let codes: ActionCodes
    let sessions: Sessions
}
