import FlintCore
import FlintStore

/// Where first factors meet second factors: the project's MFA policy asked inside every first-factor transaction
/// (``firstFactorGate(_:localID:provider:linking:phoneBecomesFirstFactor:)``), the session or challenge that follows
/// (``pass(_:_:user:provider:isNew:linking:developerClaims:now:)``), and the sealed pending credentials of challenges.
struct SignInGate: Sendable {
    /// What it runs on: settings, project config, store, clock, randomness, logger.
    let node: Node
    /// The MFA key seals pending credentials.
    let secret: ServerSecret
    let sessions: Sessions
    /// The tenants a pending credential may name (``inTenant(ofPendingCredential:_:)``).
    let tenants: TenantCache
}
