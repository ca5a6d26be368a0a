public import Logging
public import NIOCore
public import NIOPosix
import NIOSSL
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Sends mail through one SMTP server. Each `send` opens its own connection and says EHLO, STARTTLS and EHLO again
/// (when configured), AUTH (PLAIN, else LOGIN, when there are credentials), MAIL FROM, RCPT TO for each recipient,
/// DATA and QUIT.
///
/// A 4xx reply, a refused or broken connection and a timeout are tried again, up to `settings.maxAttempts` in all,
/// waiting `settings.initialBackoff` and then twice as long each time; a 5xx reply ends at once. Credentials only ever
/// go over TLS, unless the settings chose `security: .none`.
public struct SMTPClient: Sendable {
    /// Where and how mail is delivered.
    public let settings: SMTPSettings
    private let eventLoopGroup: any EventLoopGroup
    private let logger: Logger
    /// The TLS context, built at the first send and shared by every later one (loading trust roots reads files).
    private let tlsContext = TLSContextCache()

    /// A client for one server.
    /// - Parameters:
    ///   - settings: the server, security, credentials and limits.
    ///   - eventLoopGroup: where connections run.
    ///   - logger: receives one line per delivery and per failed attempt (attempt count, reply code, message ID;
    ///     never a password or a message's content).
    public init(settings: SMTPSettings, eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton, logger: Logger) {
        self.settings = settings
        self.eventLoopGroup = eventLoopGroup
        self.logger = logger
    }

    /// Renders and delivers `message`, trying again on failures that may pass.
    /// - Returns: the attempt count, the server's reply to the end of DATA and the `Message-ID`.
    /// - Throws: `SMTPError`: `.invalidSettings` or `.invalidMessage` before anything is sent, `.permanent` at the
    ///   first 5xx reply, `.tls` for TLS problems, or the last attempt's `.transient`, `.timeout` or `.connection`;
    ///   `CancellationError` when the task is cancelled while waiting to try again.
    public func send(_ message: MailMessage) async throws -> SMTPReceipt {
        try settings.validate()
        let messageID = MIMEMessage.makeMessageID(domain: message.from.domain)
        let payload = SMTPDataEncoding.payload(try MIMEMessage.render(message, messageID: messageID, date: Date()))
        let tls = try tlsContext.get { () throws(SMTPError) in try Self.makeTLSContext(settings) }
        var logger = logger
        logger[metadataKey: "smtp.server"] = "\(settings.host):\(settings.port)"
        logger[metadataKey: "smtp.messageID"] = "\(messageID)"

        var backoff = settings.initialBackoff
        var attempt = 1
        while true {
            do throws(SMTPError) {
                let reply = try await deliver(message, payload: payload, tls: tls)
                logger.info(
                    "mail delivered",
                    metadata: ["smtp.attempts": "\(attempt)", "smtp.code": "\(reply.code)", "smtp.recipients": "\(message.to.count)"]
                )
                return SMTPReceipt(attempts: attempt, serverReply: reply.description, messageID: messageID)
            } catch {
                var metadata: Logger.Metadata = ["smtp.attempts": "\(attempt)", "smtp.error": "\(error)"]
                if let code = error.replyCode { metadata["smtp.code"] = "\(code)" }
                guard !error.isPermanent, attempt < settings.maxAttempts else {
                    logger.error("mail not delivered", metadata: metadata)
                    throw error
                }
                logger.warning("mail delivery attempt failed; trying again", metadata: metadata)
            }
            try await Task.sleep(for: backoff)
            backoff *= 2
            attempt += 1
        }
    }

    /// One attempt: a connection and a conversation, ended with QUIT whatever happens.
    private func deliver(_ message: MailMessage, payload: [UInt8], tls: NIOSSLContext?) async throws(SMTPError) -> SMTPReply {
        let (connection, greeting) = try await SMTPConnection.open(settings: settings, tls: tls, group: eventLoopGroup)
        var conversation = SMTPConversation(
            settings: settings, sender: message.from.address, recipients: message.to.map(\.address),
            tlsActive: settings.security == .implicitTLS
        )
        do {
            var step = try conversation.receive(greeting)
            while true {
                switch step {
                case .send(let command):
                    step = try conversation.receive(try await connection.exchange(command))
                case .startTLS:
                    // The connection put TLS in front when the 220 to STARTTLS arrived.
                    step = conversation.tlsStarted()
                case .sendData:
                    step = try conversation.receive(try await connection.exchange(bytes: ByteBuffer(bytes: payload), name: "end of DATA"))
                case .delivered(let reply):
                    await connection.quit()
                    return reply
                }
            }
        } catch {
            await connection.quit()
            throw error
        }
    }

    /// The TLS context for the settings: the system's roots or the given CA file, full verification unless turned
    /// off, TLS 1.2 or later; `nil` without TLS.
    static func makeTLSContext(_ settings: SMTPSettings) throws(SMTPError) -> NIOSSLContext? {
        guard settings.security != .none else { return nil }
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.minimumTLSVersion = .tlsv12
        configuration.certificateVerification = settings.verifyCertificate ? .fullVerification : .none
        if let file = settings.trustRootsFile {
            do {
                configuration.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(file))
            } catch {
                throw .invalidSettings("cannot read CA certificates from \(file): \(error)")
            }
        }
        do {
            return try NIOSSLContext(configuration: configuration)
        } catch {
            throw .tls("cannot set up TLS: \(error)")
        }
    }
}

/// Holds a client's TLS context once it is built; a failed build is not kept, so it is tried again at the next send.
final class TLSContextCache: Sendable {
    private let built = Mutex<NIOSSLContext??>(nil)

    /// The context, built by `make` the first time.
    func get(_ make: () throws(SMTPError) -> NIOSSLContext?) throws(SMTPError) -> NIOSSLContext? {
        if let context = built.withLock({ $0 }) { return context }
        let context = try make()
        built.withLock { $0 = .some(context) }
        return context
    }
}
