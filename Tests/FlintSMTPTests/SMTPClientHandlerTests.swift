import NIOCore
import NIOEmbedded
import NIOSSL
import Synchronization
import Testing

@testable import FlintSMTP

@Suite("SMTP channel handler")
struct SMTPClientHandlerTests {
    /// A handler in an embedded channel, connected (so the greeting's timer runs), and its greeting's outcome.
    final class Harness {
        let channel: EmbeddedChannel
        let greeting: Outcome

        init(timeout: TimeAmount = .seconds(10)) throws {
            let loop = EmbeddedEventLoop()
            let promise = loop.makePromise(of: SMTPReply.self)
            channel = EmbeddedChannel(handler: SMTPClientHandler(greeting: promise, timeout: timeout), loop: loop)
            greeting = Outcome(promise.futureResult)
            try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 25)).wait()
        }

        func receive(_ text: String) {
            _ = try? channel.writeInbound(ByteBuffer(string: text))
        }

        /// Sends a command through the handler; returns the outcome of its reply.
        func send(_ line: String, startTLS: Bool = false) throws -> Outcome {
            let promise = channel.eventLoop.makePromise(of: SMTPReply.self)
            let upgrade =
                startTLS
                ? SMTPExchange.TLSUpgrade(context: try NIOSSLContext(configuration: .makeClientConfiguration()), serverHostname: "mail.example") : nil
            let exchange = SMTPExchange(
                bytes: ByteBuffer(string: line + "\r\n"), name: line, timeout: .seconds(10), tlsUpgrade: upgrade, reply: promise)
            channel.writeAndFlush(exchange, promise: nil)
            return Outcome(promise.futureResult)
        }

        func written() -> String? {
            (try? channel.readOutbound(as: ByteBuffer.self)).flatMap { $0.map { String(buffer: $0) } }
        }
    }

    /// What became of a reply promise, read without blocking.
    final class Outcome: Sendable {
        private let result = Mutex<Result<SMTPReply, SMTPError>?>(nil)

        init(_ future: EventLoopFuture<SMTPReply>) {
            future.whenComplete { outcome in
                self.result.withLock { $0 = outcome.mapError { SMTPError($0) } }
            }
        }

        var reply: SMTPReply? { result.withLock { try? $0?.get() } }
        var error: SMTPError? {
            result.withLock {
                guard case .failure(let error) = $0 else { return nil }
                return error
            }
        }
        var isPending: Bool { result.withLock { $0 == nil } }
    }

    @Test("a multi-line reply split across reads, with bare LF line ends, is one reply")
    func framing() throws {
        let h = try Harness()
        h.receive("220-mail.exa")
        #expect(h.greeting.isPending)
        h.receive("mple ESMTP\r\n220 re")
        #expect(h.greeting.isPending)
        h.receive("ady\n")
        #expect(h.greeting.reply == SMTPReply(code: 220, lines: ["mail.example ESMTP", "ready"]))

        let ehlo = try h.send("EHLO me")
        #expect(h.written() == "EHLO me\r\n")
        h.receive("250-mail.example\r\n250-PIPELINING\r\n250 STARTTLS\r\n")
        #expect(ehlo.reply?.lines == ["mail.example", "PIPELINING", "STARTTLS"])
    }

    @Test("a reply nobody waits for closes the connection with a protocol violation")
    func unsolicited() throws {
        let h = try Harness()
        h.receive("220 hi\r\n")
        h.receive("250 surprise\r\n")
        #expect(!h.channel.isActive)
        guard case .protocolViolation = try h.send("NOOP").error else {
            Issue.record("a later command did not fail")
            return
        }
    }

    @Test("the 220 to STARTTLS puts TLS in front of the handler before anything else is read")
    func startTLS() throws {
        let h = try Harness()
        h.receive("220 hi\r\n")
        let startTLS = try h.send("STARTTLS", startTLS: true)
        #expect(h.written() == "STARTTLS\r\n")
        #expect(throws: (any Error).self) { try h.channel.pipeline.syncOperations.handler(type: NIOSSLClientHandler.self) }
        h.receive("220 go ahead\r\n")
        #expect(startTLS.reply?.code == 220)
        #expect(throws: Never.self) { try h.channel.pipeline.syncOperations.handler(type: NIOSSLClientHandler.self) }
        #expect(h.written()?.isEmpty == false)  // the ClientHello
    }

    @Test("anything after the 220 to STARTTLS, before TLS, is refused (no command injection in clear)")
    func startTLSInjection() throws {
        let h = try Harness()
        h.receive("220 hi\r\n")
        let startTLS = try h.send("STARTTLS", startTLS: true)
        h.receive("220 go ahead\r\n250-injected")
        guard case .protocolViolation = startTLS.error else {
            Issue.record("expected a protocol violation, got \(String(describing: startTLS.reply))")
            return
        }
        #expect(!h.channel.isActive)
    }

    @Test("a refusal of STARTTLS does not start TLS")
    func startTLSRefused() throws {
        let h = try Harness()
        h.receive("220 hi\r\n")
        let startTLS = try h.send("STARTTLS", startTLS: true)
        h.receive("454 TLS not available\r\n")
        #expect(startTLS.reply?.code == 454)
        #expect(throws: (any Error).self) { try h.channel.pipeline.syncOperations.handler(type: NIOSSLClientHandler.self) }
    }

    @Test("garbage and over-long lines are protocol violations")
    func garbage() throws {
        let h = try Harness()
        h.receive("HTTP/1.1 400 Bad Request\r\n")
        guard case .protocolViolation = h.greeting.error else {
            Issue.record("expected a protocol violation")
            return
        }
        let long = try Harness()
        long.receive("220 " + String(repeating: "x", count: 5000))
        guard case .protocolViolation = long.greeting.error else {
            Issue.record("expected a protocol violation")
            return
        }
    }

    @Test("no reply within the timeout fails the wait with a timeout and closes the connection")
    func timeout() throws {
        let h = try Harness(timeout: .seconds(2))
        h.channel.embeddedEventLoop.advanceTime(by: .milliseconds(1900))
        #expect(h.greeting.isPending)
        h.channel.embeddedEventLoop.advanceTime(by: .milliseconds(200))
        #expect(h.greeting.error == .timeout("no reply to the greeting within 2 s"))
        #expect(!h.channel.isActive)
    }

    @Test("the server closing the connection fails the waiting command")
    func closed() throws {
        let h = try Harness()
        h.receive("220 hi\r\n")
        let mail = try h.send("MAIL FROM:<a@b>")
        h.channel.pipeline.fireChannelInactive()
        guard case .connection = mail.error else {
            Issue.record("expected a connection error")
            return
        }
    }
}
