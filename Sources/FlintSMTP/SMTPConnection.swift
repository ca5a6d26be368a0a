import NIOCore
import NIOPosix
import NIOSSL

/// One TCP connection to the server, seen from async code: open it (with TLS from the start when configured), trade
/// commands for replies (STARTTLS included), close. The waiting, framing and timeouts live in `SMTPClientHandler`.
struct SMTPConnection: Sendable {
    private let channel: any Channel
    private let commandTimeout: TimeAmount
    private let tls: NIOSSLContext?
    private let serverHostname: String?

    private init(channel: any Channel, commandTimeout: TimeAmount, tls: NIOSSLContext?, serverHostname: String?) {
        self.channel = channel
        self.commandTimeout = commandTimeout
        self.tls = tls
        self.serverHostname = serverHostname
    }

    /// Connects to the server and waits for its greeting.
    /// - Parameters:
    ///   - settings: the server, the security mode and the timeouts.
    ///   - tls: the TLS context, for `implicitTLS` and `startTLS`.
    ///   - group: where the connection's event loop comes from.
    /// - Returns: the connection and the greeting (whatever its code).
    static func open(settings: SMTPSettings, tls: NIOSSLContext?, group: any EventLoopGroup) async throws(SMTPError) -> (SMTPConnection, SMTPReply) {
        let eventLoop = group.next()
        let greeting = eventLoop.makePromise(of: SMTPReply.self)
        let commandTimeout = TimeAmount(settings.commandTimeout)
        // SNI takes host names only; for an IP address NIOSSL checks the certificate against the peer's address.
        let serverHostname = (try? SocketAddress(ipAddress: settings.host, port: 0)) == nil ? settings.host : nil
        let implicitTLS = settings.security == .implicitTLS ? tls : nil
        let bootstrap = ClientBootstrap(group: eventLoop)
            .connectTimeout(TimeAmount(settings.connectTimeout))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let implicitTLS {
                        try channel.pipeline.syncOperations.addHandler(NIOSSLClientHandler(context: implicitTLS, serverHostname: serverHostname))
                    }
                    try channel.pipeline.syncOperations.addHandler(SMTPClientHandler(greeting: greeting, timeout: commandTimeout))
                }
            }
        let channel: any Channel
        do {
            channel = try await bootstrap.connect(host: settings.host, port: settings.port).get()
        } catch {
            greeting.fail(error)
            throw Self.connectFailure(error, settings: settings)
        }
        let connection = SMTPConnection(channel: channel, commandTimeout: commandTimeout, tls: tls, serverHostname: serverHostname)
        do {
            return (connection, try await connection.wait(for: greeting.futureResult))
        } catch {
            await connection.close()
            throw error
        }
    }

    /// Sends `command` and waits for its reply; for STARTTLS, a 220 reply has put TLS in front of the connection by
    /// the time it is returned (the handshake runs before the next command goes out, and its failure fails that
    /// command).
    func exchange(_ command: SMTPCommand) async throws(SMTPError) -> SMTPReply {
        var upgrade: SMTPExchange.TLSUpgrade?
        if command.upgradesToTLS {
            guard let tls else { throw .tls("no TLS context for STARTTLS") }
            upgrade = SMTPExchange.TLSUpgrade(context: tls, serverHostname: serverHostname)
        }
        return try await exchange(bytes: ByteBuffer(string: command.line + "\r\n"), name: command.name, tlsUpgrade: upgrade)
    }

    /// Sends `bytes` (the message after DATA) and waits for the reply.
    func exchange(
        bytes: ByteBuffer, name: String, tlsUpgrade: SMTPExchange.TLSUpgrade? = nil, timeout: TimeAmount? = nil
    ) async throws(SMTPError) -> SMTPReply {
        let reply = channel.eventLoop.makePromise(of: SMTPReply.self)
        let written = channel.eventLoop.makePromise(of: Void.self)
        // A write to a closed channel never reaches the handler: fail the reply with the write.
        written.futureResult.whenFailure { reply.fail($0) }
        let exchange = SMTPExchange(bytes: bytes, name: name, timeout: timeout ?? commandTimeout, tlsUpgrade: tlsUpgrade, reply: reply)
        channel.writeAndFlush(exchange, promise: written)
        return try await wait(for: reply.futureResult)
    }

    /// Says QUIT (waiting a few seconds at most for the reply) and closes the connection.
    func quit() async {
        if channel.isActive {
            let wait = min(commandTimeout, .seconds(5))
            _ = try? await exchange(bytes: ByteBuffer(string: "QUIT\r\n"), name: "QUIT", timeout: wait)
        }
        await close()
    }

    /// Closes the connection.
    func close() async {
        try? await channel.close()
    }

    private func wait(for future: EventLoopFuture<SMTPReply>) async throws(SMTPError) -> SMTPReply {
        let channel = channel
        do {
            return try await withTaskCancellationHandler {
                try await future.get()
            } onCancel: {
                channel.close(promise: nil)
            }
        } catch {
            throw SMTPError(error)
        }
    }

    private static func connectFailure(_ error: any Error, settings: SMTPSettings) -> SMTPError {
        switch SMTPError(error) {
        case .timeout(let message): .timeout("connecting to \(settings.host):\(settings.port): \(message)")
        case .connection(let message): .connection("cannot connect to \(settings.host):\(settings.port): \(message)")
        case let other: other
        }
    }
}
