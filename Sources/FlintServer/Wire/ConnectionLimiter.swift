import NIOCore
import Synchronization

/// Counts open connections per client IP and refuses those over ``maxPerIP``, so one client cannot hold every
/// descriptor the server has (slow or idle connections cost one each until a timeout drops them).
///
/// The count is the peer address of the TCP connection: behind a proxy every client shares the proxy's address, so
/// raise the limit there (`--max-connections-per-ip`).
final class ConnectionLimiter: Sendable {
    /// Connections one IP address may hold open at once.
    let maxPerIP: Int
    private let open = Mutex<[String: Int]>([:])

    init(maxPerIP: Int) {
        self.maxPerIP = maxPerIP
    }

    /// Counts a new connection from `ip`; returns `false` (and counts nothing) when `ip` already holds the maximum.
    func admit(_ ip: String) -> Bool {
        open.withLock { open in
            let count = open[ip, default: 0]
            guard count < maxPerIP else { return false }
            open[ip] = count + 1
            return true
        }
    }

    /// Uncounts a connection ``admit(_:)`` let in.
    func release(_ ip: String) {
        open.withLock { open in
            let count = open[ip, default: 0] - 1
            open[ip] = count > 0 ? count : nil
        }
    }

    /// Connections `ip` holds now.
    func count(_ ip: String) -> Int { open.withLock { $0[ip, default: 0] } }
}

/// The first handler of every connection: asks the ``ConnectionLimiter`` when the connection becomes active, closes it
/// at once when its IP is over the limit, and uncounts it when it closes.
final class ConnectionLimitHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer

    private let limiter: ConnectionLimiter
    private var admittedIP: String?

    init(limiter: ConnectionLimiter) {
        self.limiter = limiter
    }

    func channelActive(context: ChannelHandlerContext) {
        // A connection without an IP peer (a Unix socket) is not counted.
        guard let ip = context.channel.remoteAddress?.ipAddress else {
            context.fireChannelActive()
            return
        }
        guard limiter.admit(ip) else {
            context.close(promise: nil)
            return
        }
        admittedIP = ip
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        if let ip = admittedIP {
            limiter.release(ip)
            admittedIP = nil
        }
        context.fireChannelInactive()
    }
}

@available(*, unavailable)
extension ConnectionLimitHandler: Sendable {}
