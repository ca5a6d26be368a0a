import FlintCore
import FlintStore
import Logging

/// Second factors: enrolling (SMS and TOTP) and withdrawing them, signing in with one, and recovery codes.
package struct MFAFlow: Sendable {
    /// What it runs on: settings, project config, store, clock, randomness, logger.
    let node: Node
    /// The MFA key seals TOTP secrets; the recovery key hashes recovery codes.
    let secret: ServerSecret
    let codes: PhoneCodes
    let sessions: Sessions
    let gate: SignInGate

    /// The store aggregates its transactions touch: accounts (with their sign-in stamps), refresh tokens, second
    /// factors and recovery codes, the tries' counters, the audit log.
    typealias Writes = UsersWrites & UserListingWrites & TokensWrites & SecondFactorsWrites & CountersWrites & AuditWrites

    /// At most this many second factors per account.
    static let maxSecondFactors = 5
}
