import AsyncHTTPClient
import Crypto
import FlintCore
import FlintServerTestSupport
import FlintTesting
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOPosix
import NIOSSL
import SwiftASN1
import Synchronization
import Testing
import X509

@testable import FlintServer

/// The APNs sender against a local stand-in that speaks what Apple's provider API speaks: HTTP/2 only (ALPN `h2`),
/// over TLS with a certificate the test generates and the client trusts.
@Suite("App verification: APNs sender over HTTP/2 and TLS")
struct APNsHTTP2Tests {
    /// One request as the stand-in saw it.
    struct Seen: Sendable {
        var version: HTTPVersion
        var method: HTTPMethod
        var uri: String
        var headers: HTTPHeaders
        var body: String
    }

    /// The requests the stand-in saw.
    final class SeenLog: Sendable {
        let requests = Mutex<[Seen]>([])
        var first: Seen? { requests.withLock { $0.first } }
    }

    /// Records each request and answers `status` with `body`.
    final class Responder: ChannelInboundHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart

        let record: @Sendable (Seen) -> Void
        let status: HTTPResponseStatus
        let answer: String
        private var head: HTTPRequestHead?
        private var body = ""

        init(record: @escaping @Sendable (Seen) -> Void, status: HTTPResponseStatus, answer: String) {
            self.record = record
            self.status = status
            self.answer = answer
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head): self.head = head
            case .body(let buffer): body += String(buffer: buffer)
            case .end:
                guard let head else { return }
                record(Seen(version: head.version, method: head.method, uri: head.uri, headers: head.headers, body: body))
                var headers = HTTPHeaders()
                headers.add(name: "content-length", value: String(answer.utf8.count))
                context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: status, headers: headers))), promise: nil)
                context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: answer)))), promise: nil)
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            }
        }
    }

    /// A self-signed certificate for 127.0.0.1 and localhost, and its key.
    static func certificate() throws -> (NIOSSLCertificate, NIOSSLPrivateKey) {
        let key = P256.Signing.PrivateKey()
        let name = try DistinguishedName { CommonName("localhost") }
        let now = Date()
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(key.publicKey), notValidBefore: now - 3600,
            notValidAfter: now + 3600, issuer: name, subject: name, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                SubjectAlternativeNames([.dnsName("localhost"), .ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1]))])
            },
            issuerPrivateKey: .init(key))
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return (
            try NIOSSLCertificate(bytes: serializer.serializedBytes, format: .der),
            try NIOSSLPrivateKey(bytes: Array(key.pemRepresentation.utf8), format: .pem)
        )
    }

    /// Runs `body` with a stand-in on a free loopback port and a client that trusts only its certificate.
    func withStandIn(
        status: HTTPResponseStatus, answer: String, _ body: (_ base: String, _ client: HTTPClient, _ seen: SeenLog) async throws -> Void
    ) async throws {
        let (certificate, key) = try Self.certificate()
        var serverTLS = TLSConfiguration.makeServerConfiguration(certificateChain: [.certificate(certificate)], privateKey: .privateKey(key))
        serverTLS.applicationProtocols = ["h2"]
        let context = try NIOSSLContext(configuration: serverTLS)
        let seen = SeenLog()
        let record: @Sendable (Seen) -> Void = { request in seen.requests.withLock { $0.append(request) } }
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                }.flatMap {
                    channel.configureHTTP2Pipeline(mode: .server) { stream in
                        stream.eventLoop.makeCompletedFuture {
                            try stream.pipeline.syncOperations.addHandlers([
                                HTTP2FramePayloadToHTTP1ServerCodec(), Responder(record: record, status: status, answer: answer),
                            ])
                        }
                    }.map { _ in () }
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        var clientTLS = TLSConfiguration.makeClientConfiguration()
        clientTLS.trustRoots = .certificates([certificate])
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(tlsConfiguration: clientTLS))
        do {
            try await body("https://127.0.0.1:\(try #require(server.localAddress?.port))", client, seen)
        } catch {
            try await client.shutdown()
            try await server.close()
            throw error
        }
        try await client.shutdown()
        try await server.close()
    }

    func sender(_ base: String, client: HTTPClient) throws -> APNsPushSender {
        let credentials = try APNsProviderToken(p8: APNsPushSenderTests.key.pemRepresentation, keyID: "ABC123DEFG", teamID: "TEAM123456")
        return APNsPushSender(
            credentials: credentials, bundleID: "com.example.app", client: client, productionURL: base, sandboxURL: base,
            logger: Logger(label: "test"))
    }

    @Test("a push goes over HTTP/2 and TLS with Apple's headers, a provider token that verifies, and the payload")
    func accepted() async throws {
        try await withStandIn(status: .ok, answer: "") { base, client, seen in
            let payload = #"{"aps":{"content-available":1},"com.google.firebase.auth":{"receipt":"r","secret":"s"}}"#
            try await sender(base, client: client).send(PushMessage(deviceToken: "0a1b2c3d4e5f6071", sandbox: false, payload: payload, createdAt: 0))
            let request = try #require(seen.first)
            #expect(request.version == HTTPVersion(major: 2, minor: 0))
            #expect(request.method == .POST)
            #expect(request.uri == "/3/device/0a1b2c3d4e5f6071")
            #expect(request.headers["apns-topic"] == ["com.example.app"])
            #expect(request.headers["apns-push-type"] == ["background"])
            #expect(request.headers["apns-priority"] == ["5"])
            #expect(request.body == payload)
            let authorization = try #require(request.headers["authorization"].first)
            let token = String(authorization.dropFirst("bearer ".count))
            let parts = token.split(separator: ".")
            let signature = try P256.Signing.ECDSASignature(rawRepresentation: try #require(Base64URL.decode(parts[2])))
            #expect(APNsPushSenderTests.key.publicKey.isValidSignature(signature, for: Array("\(parts[0]).\(parts[1])".utf8)))
        }
    }

    @Test("Apple's refusal comes back as the status and reason")
    func refused() async throws {
        try await withStandIn(status: .forbidden, answer: #"{"reason":"ExpiredProviderToken"}"#) { base, client, _ in
            await #expect(throws: APNsPushSender.Refused(status: 403, reason: "ExpiredProviderToken")) {
                try await sender(base, client: client).send(PushMessage(deviceToken: "0a1b", sandbox: true, payload: "{}", createdAt: 0))
            }
        }
    }
}
