public import FlintCore

/// A message rendered for delivery, kept durably by the dev outbox.
public struct OutboxMessage: Sendable, Equatable {
    /// Store-assigned sequence number (oldest first).
    public var sequence: Int64?
    /// How it travels.
    public var channel: OutboxChannel
    /// Recipient (E.164 number or email address).
    public var recipient: String
    /// The rendered text.
    public var body: String
    /// The locale the text was rendered in.
    public var locale: String
    /// When it was queued.
    public var createdAt: Instant
    /// The code the message carries (dev outbox only), for the emulator's `verificationCodes` listing.
    public var code: String?
    /// The code session it belongs to (hex ID), if any; for email, the stored hash of the oob code.
    public var sessionID: String?
    /// Email only: the subject, HTML body, action link and request type (`EMAIL_SIGNIN`, ...).
    public var email: EmailParts?
    /// Delivery state: ``OutboxStatus/dev`` (the record is the delivery), `queued`, `sending`, `sent` or `failed`.
    public var status: OutboxStatus = .dev
    /// The last delivery answer (the server's reply, or why it failed).
    public var statusDetail: String?
    /// Delivery attempts so far.
    public var attempts: Int = 0

    /// The email-specific parts of an outbox record.
    public struct EmailParts: Sendable, Equatable {
        /// Subject line.
        public var subject: String
        /// HTML body.
        public var html: String
        /// The action link inside the message.
        public var link: String
        /// What the code in the link is for.
        public var requestType: OobCodeKind

        /// Creates the parts.
        public init(subject: String, html: String, link: String, requestType: OobCodeKind) {
            self.subject = subject
            self.html = html
            self.link = link
            self.requestType = requestType
        }
    }

    /// Creates a message.
    public init(
        sequence: Int64? = nil, channel: OutboxChannel, recipient: String, body: String, locale: String, createdAt: Instant, code: String? = nil,
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
