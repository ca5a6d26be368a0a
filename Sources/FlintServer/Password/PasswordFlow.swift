import FlintCore
import FlintStore

/// Email and password: `signUp` (also anonymous and the operator's create), `signInWithPassword`, `resetPassword`
/// and `createAuthUri`.
struct PasswordFlow: Sendable {
    /// What it runs on: settings, project config, store, clock, randomness, logger.
    let node: Node
    let passwords: PasswordHasher
    let codes: ActionCodes
    let sessions: Sessions
    let gate: SignInGate
    let newAccounts: AccountCreationLimit
}

/// The password endpoints' handlers that do more than hand the body to the flow.
struct PasswordRoutes {
    let flow: PasswordFlow
}
