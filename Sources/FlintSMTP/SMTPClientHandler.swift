import NIOCore
import NIOSSL

/// The channel's SMTP end: frames the server's bytes into lines and replies, pairs each reply with the one exchange
/// waiting for it, times that wait out, and switches to TLS after the server agrees to STARTTLS. Any failure (a timeout,
/// an unexpected reply, a broken connection, a TLS error from the handler in front) fails the waiting exchange and every
/// later one, and closes the channel; `failure` keeps it for what fails outside the handler afterwards.
final class SMTPClientHandler: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = SMTPExchange
    typealias OutboundOut = ByteBuffer

    /// The longest line accepted from the server (RFC 5321 allows 512; some servers send more).
    static let maxLineLength = 4096

    private var buffer = ByteBuffer()
    private var parser = SMTPReplyParser()
    private var waiting: SMTPExchange?
    private var timer: Scheduled<Void>?
    /// What ended the channel: the first failure, or a failed TLS handshake seen after a connection failure (see
    /// `fail`).
    private(set) var failure: SMTPError?

    /// A handler whose first wait is for the server's greeting.
    init(greeting: EventLoopPromise<SMTPReply>, timeout: TimeAmount) {
        waiting = SMTPExchange(bytes: nil, name: "the greeting", timeout: timeout, reply: greeting)
    }

    func channelActive(context: ChannelHandlerContext) {
        if let waiting { arm(waiting, context: context) }
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var incoming = unwrapInboundIn(data)
        buffer.writeBuffer(&incoming)
        do {
            while failure == nil, let newline = buffer.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) {
                let length = newline - buffer.readerIndex
                guard var line = buffer.readBytes(length: length + 1) else { break }
                line.removeLast()
                if line.last == 13 { line.removeLast() }
                if let reply = try parser.feed(line) { deliver(reply, context: context) }
            }
            if buffer.readableBytes > Self.maxLineLength {
                throw SMTPError.protocolViolation("a reply line longer than \(Self.maxLineLength) bytes")
            }
            buffer.discardReadBytes()
        } catch {
            fail(SMTPError(error), context: context)
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let exchange = unwrapOutboundIn(data)
        if let failure {
            exchange.reply.fail(failure)
            promise?.fail(failure)
            return
        }
        guard waiting == nil else {
            let error = SMTPError.protocolViolation("\(exchange.name) was sent before the previous reply")
            exchange.reply.fail(error)
            promise?.fail(error)
            return
        }
        waiting = exchange
        arm(exchange, context: context)
        if let bytes = exchange.bytes {
            context.write(wrapOutboundOut(bytes), promise: promise)
        } else {
            promise?.succeed()
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(SMTPError(error), context: context, explainsConnectionFailure: SMTPError.isHandshakeFailure(error))
    }

    func channelInactive(context: ChannelHandlerContext) {
        fail(.connection("the server closed the connection"), context: context)
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        fail(.connection("the connection was closed"), context: context, close: false)
    }

    /// Hands `reply` to the exchange waiting for it; a reply nobody waits for is a protocol violation.
    private func deliver(_ reply: SMTPReply, context: ChannelHandlerContext) {
        guard let exchange = waiting else {
            fail(.protocolViolation("a reply nobody asked for: \(reply)"), context: context)
            return
        }
        if let upgrade = exchange.tlsUpgrade, reply.code == 220 {
            // Whatever came with the reply was sent in clear and must not be read as if it came over TLS.
            guard buffer.readableBytes == 0, !parser.isMidReply else {
                fail(.protocolViolation("the server sent more after agreeing to STARTTLS"), context: context)
                return
            }
            // Added here, on the event loop, so that no byte is read between the reply and TLS.
            do {
                let tls = try NIOSSLClientHandler(context: upgrade.context, serverHostname: upgrade.serverHostname)
                try context.pipeline.syncOperations.addHandler(tls, position: .first)
            } catch {
                fail(.tls("cannot start TLS: \(error)"), context: context)
                return
            }
        }
        waiting = nil
        timer?.cancel()
        timer = nil
        exchange.reply.succeed(reply)
    }

    private func arm(_ exchange: SMTPExchange, context: ChannelHandlerContext) {
        timer?.cancel()
        let name = exchange.name
        let timeout = exchange.timeout
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) { [self] in
            fail(.timeout("no reply to \(name) within \(Self.describe(timeout))"), context: context)
        }
    }

    /// Records the failure, fails the waiting exchange with it, and closes the channel. The first failure is kept,
    /// except that a failed TLS handshake (`explainsConnectionFailure`) replaces a connection failure seen before it:
    /// a reset or a close can reach the handler first (NIOSSL reports the handshake as failed when the connection ends
    /// during it), and a TLS failure is permanent where a connection failure would be tried again.
    private func fail(_ error: SMTPError, context: ChannelHandlerContext, close: Bool = true, explainsConnectionFailure: Bool = false) {
        switch failure {
        case nil: failure = error
        case .connection? where explainsConnectionFailure: failure = error
        default: break
        }
        timer?.cancel()
        timer = nil
        if let exchange = waiting {
            waiting = nil
            exchange.reply.fail(failure ?? error)
        }
        if close { context.close(promise: nil) }
    }

    private static func describe(_ amount: TimeAmount) -> String {
        let milliseconds = amount.nanoseconds / 1_000_000
        return milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(milliseconds) ms"
    }
}
