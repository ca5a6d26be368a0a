import FlintCore
import HummingbirdCore
import Logging
import NIOCore

/// Hummingbird's HTTP/1 child channel with ``ConnectionLimitHandler`` in front of it, so a connection over its IP's
/// limit is closed before any HTTP parsing.
struct GuardedHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value

    let base: HTTP1Channel
    let limiter: ConnectionLimiter

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        do {
            try channel.pipeline.syncOperations.addHandler(ConnectionLimitHandler(limiter: limiter))
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        return base.setup(channel: channel, logger: logger)
    }

    func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}

extension HTTPServerBuilder {
    /// HTTP/1 that drops connections idle for `idleTimeout` (a request that stalls before its head or in its body,
    /// a keep-alive connection between requests) and refuses connections over `limiter`'s per-IP maximum.
    static func flintHTTP1(idleTimeout: TimeAmount, limiter: ConnectionLimiter) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in
            GuardedHTTP1Channel(
                base: HTTP1Channel(responder: responder, configuration: .init(idleTimeout: idleTimeout)), limiter: limiter)
        }
    }

    /// ``flintHTTP1(idleTimeout:limiter:)`` as `settings` say (`--idle-timeout`, `--max-connections-per-ip`).
    static func flint(settings: ServerSettings) -> HTTPServerBuilder {
        flintHTTP1(
            idleTimeout: .milliseconds(settings.idleTimeout.inMilliseconds), limiter: ConnectionLimiter(maxPerIP: settings.maxConnectionsPerIP))
    }
}
