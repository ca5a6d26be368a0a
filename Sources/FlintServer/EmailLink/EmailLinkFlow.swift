import FlintCore
import FlintStore
import Logging

/// `sendOobCode` (every kind of action-code email) and `signInWithEmailLink`.
package struct EmailLinkFlow: Sendable {
    /// What it runs on: settings, project config, store, clock, randomness, logger.
    let node: Node
    let codes: ActionCodes
    let sessions: Sessions
    let gate: SignInGate
    let newAccounts: AccountCreationLimit

    /// The store aggregates `signInWithEmailLink`'s transaction touches: the code, accounts (with their second
    /// factors), refresh tokens, the new accounts' counters, the audit log.
    typealias Writes = OobCodesWrites & UsersWrites & SecondFactorsReads & TokensWrites & CountersWrites & AuditWrites
}

/// The email-link endpoints' handlers that do more than hand the body to the flow.
struct EmailLinkRoutes {
    let flow: EmailLinkFlow
}
