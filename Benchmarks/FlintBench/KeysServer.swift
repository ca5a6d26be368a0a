import NIOCore
import NIOHTTP1
import NIOPosix

/// A loopback HTTP server answering `GET /auth/keys` with a fixed JWKS (`Cache-Control: max-age=3600`) and 404 to
/// anything else: the key address Flint fetches from its `--idp-stand-in apple.com=http://127.0.0.1:PORT`.
struct KeysServer: Sendable {
    let channel: any Channel

    static func start(group: any EventLoopGroup, port: Int, jwks: String) async throws -> KeysServer {
        let body = Array(jwks.utf8)
        let channel = try await ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 64)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(KeysHandler(body: body))
                }
            }
            .bind(host: "127.0.0.1", port: port).get()
        return KeysServer(channel: channel)
    }

    func stop() async {
        try? await channel.close()
    }
}

private final class KeysHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    let body: [UInt8]

    init(body: [UInt8]) { self.body = body }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(let head) = unwrapInboundIn(data) else { return }
        let found = head.method == .GET && head.uri.split(separator: "?").first == "/auth/keys"
        let bytes = found ? body : Array("not found".utf8)
        var headers: HTTPHeaders = ["content-type": found ? "application/json" : "text/plain", "content-length": String(bytes.count)]
        if found { headers.add(name: "cache-control", value: "public, max-age=3600") }
        context.write(
            wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: found ? .ok : .notFound, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: bytes)))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }
}
