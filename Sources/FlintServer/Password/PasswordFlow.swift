import FlintCore
import FlintStore

/// Email and password: `signUp` (also anonymous and the operator's create), `signInWithPassword`, `resetPassword`
/// and `createAuthUri`.
struct PasswordFlow: Sendable {
    let settings: ServerSettings
    let config: ConfigCache
    let store: any AuthStore
    let clock: any WallClock
    let random: any RandomSource
    let passwords: PasswordHasher
    let codes: ActionCodes
    let sessions: Sessions
    let gate: SignInGate
    let newAccounts: AccountCreationLimit
}
