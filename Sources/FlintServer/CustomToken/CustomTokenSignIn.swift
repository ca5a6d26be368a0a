import FlintCore
import FlintStore

/// Custom tokens: `accounts:signInWithCustomToken` (v1) and the iOS SDK's `relyingparty/verifyCustomToken` (v3).
/// A backend holding a service-account key Flint knows signs the token; the account it names is created if absent.
struct CustomTokenSignIn: Sendable {
    /// What it runs on: settings, project config, store, clock, randomness, logger.
    let node: Node
    let gate: SignInGate
    /// The service-account keys tokens are checked with.
    let keys: ServiceAccountKeys
    /// A token for an account that does not exist yet creates it: counted like every new account.
    let newAccounts: AccountCreationLimit

    /// The store aggregates its transaction touches: accounts (with their second factors), refresh tokens, the new
    /// accounts' counters, the audit log.
    typealias Writes = UsersWrites & SecondFactorsReads & TokensWrites & CountersWrites & AuditWrites

    /// `firebase.sign_in_provider` of custom-token sessions.
    static let provider = "custom"
}
