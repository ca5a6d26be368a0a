public import FlintSMTP
public import Logging
public import Tracing

/// Email through an SMTP server (STARTTLS or implicit TLS, AUTH PLAIN/LOGIN), with the client's own retries on
/// passing failures; what still fails is reported to ``EmailOutbox`` as transient or permanent.
public struct SMTPEmailSender: EmailSender {
    let client: SMTPClient
    let from: MailAddress
    let server: (host: String, port: Int)
    let tracer: (any Tracer)?

    /// Creates a sender.
    /// - Parameters:
    ///   - settings: the server and credentials (see `SMTPSettings(url:)`).
    ///   - from: the sender address.
    ///   - fromName: the sender's display name.
    ///   - logger: where delivery outcomes are logged (never bodies or credentials).
    ///   - tracer: traces each delivery in a client span (`SMTP send`: the server's address, never the recipient) when set.
    public init(settings: SMTPSettings, from: String, fromName: String?, logger: Logger, tracer: (any Tracer)? = nil) {
        self.client = SMTPClient(settings: settings, logger: logger)
        self.from = MailAddress(from, name: fromName)
        (self.server, self.tracer) = ((settings.host, settings.port), tracer)
    }

    public var isDevOutbox: Bool { false }

    public func send(_ message: EmailMessage) async throws -> String {
        let mail = MailMessage(
            from: from, to: [MailAddress(message.to)], subject: message.subject, text: message.text, html: message.html,
            headers: [MailHeader("Content-Language", message.locale)]
        )
        do {
            guard let tracer else { return try await client.send(mail).serverReply }
            return try await OutgoingCall.inSpan(tracer: tracer, name: "SMTP send", peer: "smtp", host: server.host, port: server.port) { _ in
                try await client.send(mail).serverReply
            }
        } catch let error as SMTPError {
            throw error.isPermanent ? EmailDeliveryError.permanent(error.description) : EmailDeliveryError.transient(error.description)
        }
    }
}
