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

    /// The store aggregates its transactions touch: accounts (with their sign-in stamps and second factors), refresh
    /// tokens, the failure and new-account counters, the audit log.
    typealias Writes = UsersWrites & UserListingWrites & SecondFactorsReads & TokensWrites & CountersWrites & AuditWrites
    /// What `createAuthUri` reads: accounts and their federated identities.
    typealias Reads = UsersReads
}

/// The password endpoints' handlers that do more than hand the body to the flow.
struct PasswordRoutes {
    let flow: PasswordFlow
    /// `createAuthUri` with a federated provider.
    let redirect: FederatedRedirect
}
