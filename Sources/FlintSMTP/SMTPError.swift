/// Why a message was not delivered, or could not even be tried.
public enum SMTPError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The settings (usually the `smtp://` URL) are unusable.
    case invalidSettings(String)
    /// The message cannot be sent as it is: a header value or address with CR or LF (header injection), an address
    /// that is not `local@domain`, no recipients.
    case invalidMessage(String)
    /// The server refused with a 5xx reply; retrying would not help.
    case permanent(code: Int, reply: String)
    /// The server answered with a 4xx reply on the last attempt.
    case transient(code: Int, reply: String)
    /// Connecting, or waiting for a reply, took too long; the connection was closed.
    case timeout(String)
    /// The server could not be reached, or the connection broke.
    case connection(String)
    /// TLS could not be set up: no STARTTLS offered, an untrusted certificate, a name mismatch, a failed handshake.
    case tls(String)
    /// The server said something that is not SMTP, or not what the conversation allows at that point.
    case protocolViolation(String)

    /// Whether trying again later cannot help: everything but 4xx replies, timeouts and connection failures.
    public var isPermanent: Bool {
        switch self {
        case .transient, .timeout, .connection: false
        case .invalidSettings, .invalidMessage, .permanent, .tls, .protocolViolation: true
        }
    }

    /// The SMTP reply code, for `permanent` and `transient`.
    public var replyCode: Int? {
        switch self {
        case .permanent(let code, _), .transient(let code, _): code
        default: nil
        }
    }

    public var description: String {
        switch self {
        case .invalidSettings(let message): "invalid SMTP settings: \(message)"
        case .invalidMessage(let message): "invalid mail message: \(message)"
        case .permanent(let code, let reply): "SMTP server refused the message (\(code)): \(reply)"
        case .transient(let code, let reply): "SMTP server deferred the message (\(code)): \(reply)"
        case .timeout(let message): "SMTP timeout: \(message)"
        case .connection(let message): "SMTP connection failed: \(message)"
        case .tls(let message): "SMTP TLS failed: \(message)"
        case .protocolViolation(let message): "SMTP protocol violation: \(message)"
        }
    }
}
