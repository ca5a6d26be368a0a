import FlintCore

/// One text message ready to deliver.
public struct SMSMessage: Sendable, Equatable {
    /// E.164 recipient.
    public var to: String
    /// The rendered text.
    public var body: String
    /// The locale it was rendered in.
    public var locale: String
    /// Milliseconds since epoch.
    public var createdAt: Int64
    /// The code inside the text (kept only by the dev outbox, for the emulator's listing).
    public var code: String
    /// The code session's ID (hex).
    public var sessionID: String

    /// Creates a message.
    public init(to: String, body: String, locale: String, createdAt: Int64, code: String, sessionID: String) {
        self.to = to
        self.body = body
        self.locale = locale
        self.createdAt = createdAt
        self.code = code
        self.sessionID = sessionID
    }
}

/// Delivers text messages. Implementations: the durable dev outbox; real providers come with later issues.
public protocol SMSSender: Sendable {
    /// Hands a message over for delivery.
    /// - Throws: when the message could not be accepted; the caller then abandons the code session.
    func send(_ message: SMSMessage) async throws
}
