/// One message to send: its addresses, subject, a plain-text body and optionally an HTML alternative.
public struct MailMessage: Sendable, Equatable {
    /// The author; also the envelope sender (MAIL FROM).
    public var from: MailAddress
    /// The recipients; each is also an envelope recipient (RCPT TO).
    public var to: [MailAddress]
    /// Where replies should go, when not to `from`.
    public var replyTo: MailAddress?
    /// The subject line; any Unicode without line breaks.
    public var subject: String
    /// The plain-text body; any line endings (sent as CRLF).
    public var text: String
    /// An HTML version of the body, sent as the preferred `multipart/alternative` part when present.
    public var html: String?
    /// Extra header fields, in order.
    public var headers: [MailHeader]

    /// A message.
    public init(
        from: MailAddress, to: [MailAddress], replyTo: MailAddress? = nil, subject: String, text: String, html: String? = nil,
        headers: [MailHeader] = []
    ) {
        self.from = from
        self.to = to
        self.replyTo = replyTo
        self.subject = subject
        self.text = text
        self.html = html
        self.headers = headers
    }

    /// Checks every address and header, that there is a recipient and that the subject has no line break.
    /// - Throws: `SMTPError.invalidMessage` naming the first problem.
    public func validate() throws(SMTPError) {
        guard !to.isEmpty else { throw .invalidMessage("the message has no recipients") }
        try from.validate()
        for address in to { try address.validate() }
        try replyTo?.validate()
        guard !subject.unicodeScalars.contains(where: { ($0.value < 32 && $0 != "\t") || $0.value == 127 || $0 == "\u{2028}" || $0 == "\u{2029}" })
        else {
            throw .invalidMessage("the subject contains a line break or control character")
        }
        for header in headers { try header.validate() }
    }
}
