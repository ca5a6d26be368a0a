import FlintCore
import FlintStore
import Logging

/// Second factors: enrolling (SMS and TOTP) and withdrawing them, signing in with one, and recovery codes.
struct MFAFlow: Sendable {
    let settings: ServerSettings
    let config: ConfigCache
    let store: any AuthStore
    let clock: any WallClock
    let random: any RandomSource
    /// The MFA key seals TOTP secrets; the recovery key hashes recovery codes.
    let secret: ServerSecret
    let codes: PhoneCodes
    let sessions: Sessions
    let gate: SignInGate
    let logger: Logger

    /// At most this many second factors per account.
    static let maxSecondFactors = 5
}
