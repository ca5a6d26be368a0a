import FlintCore
import FlintStore
import Logging

/// `sendOobCode` (every kind of action-code email) and `signInWithEmailLink`.
struct EmailLinkFlow: Sendable {
    /// What it runs on: settings, project config, store, clock, randomness, logger.
    let node: Node
    let codes: ActionCodes
    let sessions: Sessions
    let gate: SignInGate
    let newAccounts: AccountCreationLimit
}
