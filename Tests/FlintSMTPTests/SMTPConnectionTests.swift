import Foundation
import NIOCore
import NIOEmbedded
import NIOPosix
import NIOSSL
import Testing

@testable import FlintSMTP

/// The connection over a test channel: what a failed wait reports when errors reach it in an unlucky order.
@Suite("SMTP connection failures")
struct SMTPConnectionTests {
    static let handshakeFailure = NIOSSLError.handshakeFailed(.sslError([]))
    static let reset = IOError(errnoCode: ECONNRESET, reason: "read(descriptor:pointer:size:)")

    /// A connection over a connected test channel whose handler has had the greeting.
    final class Harness: Sendable {
        let channel = NIOAsyncTestingChannel()
        let connection: SMTPConnection

        init() async throws {
            let channel = channel
            let greeting = channel.eventLoop.makePromise(of: SMTPReply.self)
            let handler = try await channel.eventLoop.submit {
                let handler = SMTPClientHandler(greeting: greeting, timeout: .seconds(10))
                try channel.pipeline.syncOperations.addHandler(handler)
                return NIOLoopBound(handler, eventLoop: channel.eventLoop)
            }.get()
            connection = SMTPConnection(channel: channel, handler: handler, commandTimeout: .seconds(10), tls: nil, serverHostname: nil)
            try await channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 25))
            try await channel.writeInbound(ByteBuffer(string: "220 hi\r\n"))
            _ = try await greeting.futureResult.get()
        }

        /// Fires `errors` at the handler one after the other on the event loop, as NIOSSL does, and lets the close run.
        func fire(_ errors: [any Error & Sendable]) async throws {
            let channel = channel
            try await channel.eventLoop.submit {
                for error in errors { channel.pipeline.fireErrorCaught(error) }
            }.get()
            await channel.testingEventLoop.run()
        }

        /// The error of sending EHLO, or `nil` when it got a reply.
        func ehlo() async -> SMTPError? {
            do {
                _ = try await connection.exchange(SMTPCommand(line: "EHLO me", name: "EHLO"))
                return nil
            } catch {
                return error
            }
        }
    }

    @Test("a command written after a failed TLS handshake closed the channel is a TLS error, not I/O on a closed channel")
    func commandAfterHandshakeFailure() async throws {
        // STARTTLS: the 220 put TLS in front, and the handshake failed (the error, then the close) before the task
        // that got the 220 wrote EHLO.
        let h = try await Harness()
        try await h.fire([Self.handshakeFailure])
        #expect(!h.channel.isActive)
        await #expect(throws: (any Error).self) { try await h.channel.pipeline.containsHandler(type: SMTPClientHandler.self).get() }
        // What the write itself fails with, never reaching the handler.
        let probe = h.channel.eventLoop.makePromise(of: SMTPReply.self)
        let exchange = SMTPExchange(bytes: ByteBuffer(string: "NOOP\r\n"), name: "NOOP", timeout: .seconds(1), reply: probe)
        await #expect(throws: ChannelError.ioOnClosedChannel) { try await h.channel.writeAndFlush(exchange) }
        probe.fail(ChannelError.ioOnClosedChannel)

        let error = await h.ehlo()
        guard case .tls = error else {
            Issue.record("expected a TLS error, got \(String(describing: error))")
            return
        }
    }

    @Test("a reset seen before the handshake failure it came with is still a TLS error")
    func resetThenHandshakeFailure() async throws {
        let h = try await Harness()
        let channel = h.channel
        let ehlo = Task { await h.ehlo() }
        _ = try await channel.waitForOutboundWrite(as: ByteBuffer.self)
        // Read fails with ECONNRESET (a connection error, failing EHLO), then NIOSSL, seeing the channel go inactive
        // mid-handshake, reports the handshake as failed.
        try await h.fire([Self.reset, Self.handshakeFailure])
        let error = await ehlo.value
        guard case .tls = error else {
            Issue.record("expected a TLS error, got \(String(describing: error))")
            return
        }
    }

    @Test("a timeout, or a reset, stays what it is when a TLS error other than a failed handshake follows the close")
    func failureThenTLSShutdownError() async throws {
        let shutdownFailure = NIOSSLError.shutdownFailed(.sslError([]))
        let timedOut = try await Harness()
        try await timedOut.fire([SMTPError.timeout("no reply"), shutdownFailure, Self.handshakeFailure])
        #expect(await timedOut.ehlo() == .timeout("no reply"))
        let reset = try await Harness()
        try await reset.fire([Self.reset, shutdownFailure, NIOSSLError.uncleanShutdown])
        guard case .connection = await reset.ehlo() else {
            Issue.record("expected a connection error")
            return
        }
    }

    @Test("an address that refuses the connection does not fail the greeting on the next one (Happy Eyeballs)")
    func secondAddress() async throws {
        let greeter = try await SilentServer.start(greeting: "220 greeter ESMTP\r\n")
        let refusing = try await closedPort()
        let group = MultiThreadedEventLoopGroup.singleton
        let resolver = FixedResolver(
            loop: group.next(),
            addresses: [try SocketAddress(ipAddress: "127.0.0.1", port: refusing), try SocketAddress(ipAddress: "127.0.0.1", port: greeter.port)]
        )
        let settings = SMTPSettings(host: "mail.test", port: 25, security: .none, commandTimeout: .seconds(10))
        let (connection, greeting) = try await SMTPConnection.open(settings: settings, tls: nil, group: group, resolver: resolver)
        connection.close()
        try await greeter.stop()
        #expect(greeting.code == 220)
    }

    /// Answers every A query with `addresses`, in order, and AAAA queries with none.
    struct FixedResolver: Resolver, Sendable {
        let loop: any EventLoop
        let addresses: [SocketAddress]
        func initiateAQuery(host: String, port: Int) -> EventLoopFuture<[SocketAddress]> { loop.makeSucceededFuture(addresses) }
        func initiateAAAAQuery(host: String, port: Int) -> EventLoopFuture<[SocketAddress]> { loop.makeSucceededFuture([]) }
        func cancelQueries() {}
    }

    @Test(
        "channel errors map to the SMTP error kinds",
        arguments: [
            (NIOSSLError.handshakeFailed(.sslError([])) as any Error & Sendable, "tls"),
            (NIOSSLExtraError.failedToValidateHostname, "tls"),
            (NIOSSLError.uncleanShutdown, "connection"),
            (ChannelError.ioOnClosedChannel, "connection"),
            (SMTPConnectionTests.reset, "connection"),
            (ChannelError.connectTimeout(.seconds(1)), "timeout"),
        ] as [(any Error & Sendable, String)]
    )
    func mapping(_ error: any Error & Sendable, _ kind: String) {
        let mapped: String =
            switch SMTPError(error) {
            case .tls: "tls"
            case .connection: "connection"
            case .timeout: "timeout"
            default: "other"
            }
        #expect(mapped == kind)
    }
}
