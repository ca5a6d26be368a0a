import NIOCore
import NIOPosix
import NIOSSL

/// One TCP connection to the server, seen from async code: open it (with TLS from the start when configured), trade
/// commands for replies (STARTTLS included), close. The waiting, framing and timeouts live in `SMTPClientHandler`.
struct SMTPConnection: Sendable {
    let channel: any Channel
    /// The channel's `SMTPClientHandler`, asked (on the event loop) what ended the channel when a wait fails.
    let handler: NIOLoopBound<SMTPClientHandler>
    let commandTimeout: TimeAmount
    let tls: NIOSSLContext?
    let serverHostname: String?

    /// One channel that Happy Eyeballs opened while connecting, with its own handler and greeting.
    private struct Attempt {
        var channel: any Channel
        var handler: SMTPClientHandler
        var greeting: EventLoopFuture<SMTPReply>
    }

    /// Connects to the server and waits for its greeting.
    /// - Parameters:
    ///   - settings: the server, the security mode and the timeouts.
    ///   - tls: the TLS context, for `implicitTLS` and `startTLS`.
    ///   - group: where the connection's event loop comes from.
    ///   - resolver: finds the host's addresses; `nil` for the system's (tests give their own).
    /// - Returns: the connection and the greeting (whatever its code).
    static func open(
        settings: SMTPSettings, tls: NIOSSLContext?, group: any EventLoopGroup, resolver: (any Resolver & Sendable)? = nil
    ) async throws(SMTPError) -> (SMTPConnection, SMTPReply) {
        let eventLoop = group.next()
        let commandTimeout = TimeAmount(settings.commandTimeout)
        // SNI takes host names only; for an IP address NIOSSL checks the certificate against the peer's address.
        let serverHostname = (try? SocketAddress(ipAddress: settings.host, port: 0)) == nil ? settings.host : nil
        let implicitTLS = settings.security == .implicitTLS ? tls : nil
        // Happy Eyeballs may open a channel for each of the host's addresses; each gets a handler and a greeting of its
        // own, so that the attempts that lose, closed by the bootstrap, cannot fail the wait on the one that won.
        let attempts = NIOLoopBoundBox.makeBoxSendingValue([Attempt](), eventLoop: eventLoop)
        let bootstrap = ClientBootstrap(group: eventLoop)
            .connectTimeout(TimeAmount(settings.connectTimeout))
            .resolver(resolver)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let implicitTLS {
                        try channel.pipeline.syncOperations.addHandler(NIOSSLClientHandler(context: implicitTLS, serverHostname: serverHostname))
                    }
                    let greeting = channel.eventLoop.makePromise(of: SMTPReply.self)
                    let handler = SMTPClientHandler(greeting: greeting, timeout: commandTimeout)
                    do {
                        try channel.pipeline.syncOperations.addHandler(handler)
                    } catch {
                        greeting.fail(error)
                        throw error
                    }
                    attempts.value.append(Attempt(channel: channel, handler: handler, greeting: greeting.futureResult))
                }
            }
        let channel: any Channel
        do {
            channel = try await bootstrap.connect(host: settings.host, port: settings.port).get()
        } catch {
            throw Self.connectFailure(error, settings: settings)
        }
        let chosen = try? await eventLoop.submit {
            attempts.value.first { $0.channel === channel }.map { (NIOLoopBound($0.handler, eventLoop: eventLoop), $0.greeting) }
        }.get()
        guard let (handler, greeting) = chosen else {
            channel.close(promise: nil)
            throw .connection("the connection to \(settings.host):\(settings.port) has no SMTP handler")
        }
        let connection = SMTPConnection(
            channel: channel, handler: handler, commandTimeout: commandTimeout, tls: tls, serverHostname: serverHostname
        )
        do {
            return (connection, try await connection.wait(for: greeting))
        } catch {
            connection.close()
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
        // A write to a closed channel never reaches the handler: fail the reply with the write (`wait` then reports
        // what closed the channel).
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
        close()
    }

    /// Closes the connection without waiting for the close to finish: over TLS, NIOSSL sends close_notify and holds
    /// the close until the server's close_notify arrives or its shutdown timeout (5 s) passes, and a server that
    /// stopped answering (the usual reason to give up on it) never sends one. Nothing the client needs is in that wait.
    func close() {
        channel.close(promise: nil)
    }

    /// Waits for a reply. A failure is reported as what ended the channel when the handler recorded that: the error
    /// that reaches the wait may be only its consequence (a command written after a failed TLS handshake closed the
    /// channel fails with "I/O on closed channel" without ever reaching the handler).
    private func wait(for future: EventLoopFuture<SMTPReply>) async throws(SMTPError) -> SMTPReply {
        let channel = channel
        do {
            return try await withTaskCancellationHandler {
                try await future.get()
            } onCancel: {
                channel.close(promise: nil)
            }
        } catch {
            throw await cause(of: error)
        }
    }

    /// The failure the handler recorded for the channel, else `error` itself. Read on the event loop, after whatever
    /// failed the wait has run to its end there (NIOSSL reports a failed handshake as an error, then the close).
    private func cause(of error: any Error) async -> SMTPError {
        let handler = handler
        let recorded = try? await channel.eventLoop.submit { handler.value.failure }.get()
        return recorded ?? SMTPError(error)
    }

    private static func connectFailure(_ error: any Error, settings: SMTPSettings) -> SMTPError {
        switch SMTPError(error) {
        case .timeout(let message): .timeout("connecting to \(settings.host):\(settings.port): \(message)")
        case .connection(let message): .connection("cannot connect to \(settings.host):\(settings.port): \(message)")
        case let other: other
        }
    }
}
