import NIOCore
import NIOSSL

/// One step of the conversation, written into the channel: the bytes of a command (none for the greeting) and the
/// promise of the reply it waits for.
struct SMTPExchange: Sendable {
    /// How to switch to TLS when the server agrees to STARTTLS.
    struct TLSUpgrade: Sendable {
        /// The client's TLS context.
        var context: NIOSSLContext
        /// The name for SNI and the certificate check; `nil` for an IP address (checked against the peer's address).
        var serverHostname: String?
    }

    /// The command's bytes, CRLF included; `nil` to wait for a reply without sending anything.
    var bytes: ByteBuffer?
    /// What the command is called in errors (`EHLO`, `end of DATA`), never its arguments.
    var name: String
    /// How long to wait for the reply before closing the connection.
    var timeout: TimeAmount
    /// For STARTTLS: on a 220 reply the handler puts TLS in front of itself before anything else is read, and refuses
    /// anything the server sent after that reply in clear.
    var tlsUpgrade: TLSUpgrade?
    /// Completed with the reply, or failed with an `SMTPError`.
    var reply: EventLoopPromise<SMTPReply>
}
