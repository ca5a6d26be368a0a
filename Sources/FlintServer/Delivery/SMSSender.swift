public import FlintCore
import FlintStore

/// One text message ready to deliver.
public struct SMSMessage: Sendable, Equatable {
    /// E.164 recipient.
    public var to: String
    /// The rendered text.
    public var body: String
    /// The locale it was rendered in.
    public var locale: String
    /// When it was queued.
    public var createdAt: Instant
    /// The code inside the text (kept in the outbox record for the dev listing of pending codes).
    public var code: String
    /// The code session's ID (hex).
    public var sessionID: String

    /// Creates a message.
    public init(to: String, body: String, locale: String, createdAt: Instant, code: String, sessionID: String) {
        self.to = to
        self.body = body
        self.locale = locale
        self.createdAt = createdAt
        self.code = code
        self.sessionID = sessionID
    }

    /// The durable record of the message, committed with its code session.
    var outboxRecord: OutboxMessage {
        OutboxMessage(channel: .sms, recipient: to, body: body, locale: locale, createdAt: createdAt, code: code, sessionID: sessionID)
    }
}

/// Delivers text messages. Every message is first recorded in the store's outbox, in the same transaction as its
/// code; a sender is called only after that commit. Implementations: ``DevOutboxSender`` (dev mode: the outbox
/// record is the delivery), ``TwilioSMSSender`` and ``WebhookSMSSender`` (`flint serve --sms`), and
/// ``UnconfiguredSMSSender`` (production without a provider).
public protocol SMSSender: Sendable {
    /// Hands a committed message over for delivery.
    /// - Throws: when the message could not be accepted (an ``SMSDeliveryError`` says why); the caller then abandons
    ///   the code session.
    func send(_ message: SMSMessage) async throws
}

/// Why a provider did not take a message.
public struct SMSDeliveryError: Error, CustomStringConvertible, Sendable {
    /// The kinds of failure the phone flow tells apart.
    public enum Kind: String, Sendable {
        /// No provider is configured (production mode without `--sms`).
        case notConfigured
        /// The provider says the number cannot receive texts (not a valid or not a mobile number).
        case rejectedNumber
        /// The provider refused the request (credentials, sender, account): an operator must act.
        case refused
        /// The provider could not be reached or answered with a server error, also on the retry.
        case unavailable
    }

    public let kind: Kind
    /// What the provider said, for the operator's log (no phone number, no text).
    public let detail: String

    public init(_ kind: Kind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }

    public var description: String { "\(kind.rawValue): \(detail)" }
}
