/// A message rendered for delivery, kept durably by the dev outbox.
public struct OutboxMessage: Sendable, Equatable {
    /// Store-assigned sequence number (oldest first).
    public var sequence: Int64?
    /// `sms` or `email`.
    public var channel: String
    /// Recipient (E.164 number or email address).
    public var recipient: String
    /// The rendered text.
    public var body: String
    /// The locale the text was rendered in.
    public var locale: String
    /// Milliseconds since epoch.
    public var createdAt: Int64
    /// The code the message carries (dev outbox only), for the emulator's `verificationCodes` listing.
    public var code: String?
    /// The code session it belongs to (hex ID), if any.
    public var sessionID: String?

    /// Creates a message.
    public init(
        sequence: Int64? = nil, channel: String, recipient: String, body: String, locale: String, createdAt: Int64, code: String? = nil,
        sessionID: String? = nil
    ) {
        self.sequence = sequence
        self.channel = channel
        self.recipient = recipient
        self.body = body
        self.locale = locale
        self.createdAt = createdAt
        self.code = code
        self.sessionID = sessionID
    }
}
