import FlintCore
import FlintStore

/// One email ready to deliver.
public struct EmailMessage: Sendable, Equatable {
    /// Recipient address.
    public var to: String
    /// Subject line.
    public var subject: String
    /// Plain-text body.
    public var text: String
    /// HTML body.
    public var html: String
    /// The locale it was rendered in.
    public var locale: String
}

/// Why an email could not be delivered.
public enum EmailDeliveryError: Error, Sendable, Equatable {
    /// The server refused for good (an SMTP 5xx): the record is marked failed, with this reason.
    case permanent(String)
    /// A passing failure (4xx, network, timeout): the outbox tries again later.
    case transient(String)
}

/// Delivers email. Every message is first committed to the store's outbox with its oob code; ``EmailOutbox`` then
/// hands it to the sender and records the outcome on the record. Implementations: ``DevOutboxEmailSender`` (the
/// record is the delivery) and ``SMTPEmailSender``.
public protocol EmailSender: Sendable {
    /// Whether the outbox record itself is the delivery (dev mode): nothing leaves the machine.
    var isDevOutbox: Bool { get }
    /// Delivers one message.
    /// - Returns: the receiving server's reply, for the outbox record.
    /// - Throws: ``EmailDeliveryError``.
    func send(_ message: EmailMessage) async throws -> String
}

/// The dev outbox for email: messages stay in the store, listed at `/emulator/v1/projects/{p}/oobCodes` and
/// `.../outbox`.
public struct DevOutboxEmailSender: EmailSender {
    /// Creates the dev outbox sender.
    public init() {}

    public var isDevOutbox: Bool { true }

    public func send(_ message: EmailMessage) async throws -> String { "kept in the dev outbox" }
}
