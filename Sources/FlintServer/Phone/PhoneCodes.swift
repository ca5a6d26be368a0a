import FlintCore
import FlintStore
import Logging

/// Verification codes by SMS: sending them (app verification, region policy, per-number caps, the outbox and the
/// provider) and spending them, for phone sign-in and SMS second factors alike.
struct PhoneCodes: Sendable {
    let settings: ServerSettings
    let config: ConfigCache
    let store: any AuthStore
    let clock: any WallClock
    let random: any RandomSource
    /// Keys for session handles and code hashes.
    let secret: ServerSecret
    let sms: any SMSSender
    let templates: SMSTemplates
    /// The app name the texts mention.
    let appName: String
    /// Checks the app's proof before a real number is texted.
    let verifier: AppVerifier
    /// Whether a number's account has second factors (it may then not sign in by SMS code alone).
    let gate: SignInGate
    let logger: Logger
}
