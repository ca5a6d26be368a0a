public import FlintSMTP
public import Logging

/// Email through an SMTP server (STARTTLS or implicit TLS, AUTH PLAIN/LOGIN), with the client's own retries on
/// passing failures; what still fails is reported to ``EmailOutbox`` as transient or permanent.
public struct SMTPEmailSender: EmailSender {
    let client: SMTPClient
    let from: MailAddress

    /// Creates a sender.
    /// - Parameters:
    ///   - settings: the server and credentials (see `SMTPSettings(url:)`).
    ///   - from: the sender address.
    ///   - fromName: the sender's display name.
    ///   - logger: where delivery outcomes are logged (never bodies or credentials).
    public init(settings: SMTPSettings, from: String, fromName: String?, logger: Logger) {
        self.client = SMTPClient(settings: settings, logger: logger)
        self.from = MailAddress(from, name: fromName)
    }

    public var isDevOutbox: Bool { false }

    public func send(_ message: EmailMessage) async throws -> String {
        let mail = MailMessage(
            from: from, to: [MailAddress(message.to)], subject: message.subject, text: message.text, html: message.html,
            headers: [MailHeader("Content-Language", message.locale)]
        )
        do {
            let receipt = try await client.send(mail)
            return receipt.serverReply
        } catch let error as SMTPError {
            throw error.isPermanent ? EmailDeliveryError.permanent(error.description) : EmailDeliveryError.transient(error.description)
        }
    }
}
