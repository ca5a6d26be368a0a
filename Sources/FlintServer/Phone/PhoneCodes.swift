import FlintCore
import FlintStore
import FlintTexts
import Logging

/// Verification codes by SMS: sending them (app verification, region policy, per-number caps, the outbox and the
/// provider) and spending them, for phone sign-in and SMS second factors alike.
struct PhoneCodes: Sendable {
    /// What it runs on: settings, project config, store, clock, randomness, logger.
    let node: Node
    /// Keys for session handles and code hashes.
    let secret: ServerSecret
    /// Hands texts to the provider; their words are the config's (`node.config.smsTemplates`).
    let sms: any SMSSender
    /// Checks the app's proof before a real number is texted.
    let verifier: AppVerifier
    /// Whether a number's account has second factors (it may then not sign in by SMS code alone).
    let gate: SignInGate

    /// The store aggregates its transactions touch: code sessions and their texts (the outbox), the senders' and
    /// numbers' counters, the audit log, and the account a spend reads.
    typealias Writes = CodeSessionsWrites & OutboxWrites & CountersWrites & AuditWrites & UsersReads
    /// What a send reads first: the number's account and its second factors.
    typealias Reads = UsersReads & SecondFactorsReads
}
