import FlintCore
import FlintStore
import Logging

/// `sendOobCode` (every kind of action-code email) and `signInWithEmailLink`.
struct EmailLinkFlow: Sendable {
    let settings: ServerSettings
    let config: ConfigCache
    let store: any AuthStore
    let clock: any WallClock
    let random: any RandomSource
    let codes: ActionCodes
    let sessions: Sessions
    let gate: SignInGate
    let newAccounts: AccountCreationLimit
    let logger: Logger
}
