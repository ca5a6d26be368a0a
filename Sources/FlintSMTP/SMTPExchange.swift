import NIOCore

/// One step of the conversation, written into the channel: the bytes of a command (none for the greeting) and the
/// promise of the reply it waits for.
struct SMTPExchange: Sendable {
    /// The command's bytes, CRLF included; `nil` to wait for a reply without sending anything.
    var bytes: ByteBuffer?
    /// What the command is called in errors (`EHLO`, `end of DATA`), never its arguments.
    var name: String
    /// How long to wait for the reply before closing the connection.
    var timeout: TimeAmount
    /// Whether a positive reply switches the connection to TLS (STARTTLS), so that nothing may follow it in clear.
    var upgradesToTLS: Bool
    /// Completed with the reply, or failed with an `SMTPError`.
    var reply: EventLoopPromise<SMTPReply>
}
