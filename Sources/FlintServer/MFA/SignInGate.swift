import FlintCore
import FlintStore

/// Where first factors meet second factors: the project's MFA policy asked inside every first-factor transaction
/// (``firstFactorGate(_:localID:provider:linking:phoneBecomesFirstFactor:)``), the session or challenge that follows
/// (``pass(_:_:user:provider:isNew:linking:now:)``), and the sealed pending credentials of challenges.
struct SignInGate: Sendable {
    let config: ConfigCache
    /// The MFA key seals pending credentials.
    let secret: ServerSecret
    let clock: any WallClock
    let random: any RandomSource
    let sessions: Sessions
}
