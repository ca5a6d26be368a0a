import AsyncHTTPClient
import FlintCore
public import Hummingbird
public import Logging
import NIOCore
import NIOHTTP1
import NIOSSL

/// `flint admin-bridge`: a listener that takes the Admin SDKs' emulator-mode calls (`FIREBASE_AUTH_EMULATOR_HOST`,
/// `Authorization: Bearer owner`, plain HTTP) and forwards them over verified HTTPS to a production Flint with a
/// named admin credential, so the SDKs work against it unpatched.
///
/// Bodies stream both ways; the upstream's status, headers and body (Firebase's error JSON included) come back
/// unchanged. Only the API's paths are forwarded (``AdminBridgeForwarding``); the bridge's own answers (a refused
/// path, an upstream it cannot reach or that does not answer in time) are Firebase-shaped errors too.
public struct AdminBridge: Sendable {
    let settings: AdminBridgeSettings
    let client: HTTPClient
    let logger: Logger

    /// - Parameters:
    ///   - settings: checked settings (``AdminBridgeSettings/validate()``).
    ///   - logger: the bridge's log; every forwarded call is logged at `debug`.
    /// - Throws: when the CA file cannot be read.
    public init(settings: AdminBridgeSettings, logger: Logger) throws {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.certificateVerification = .fullVerification
        if let caFile = settings.caFile { tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(caFile)) }
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls, redirectConfiguration: .disallow)
        configuration.timeout = .init(connect: .seconds(10))
        self.settings = settings
        self.client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        self.logger = logger
    }

    /// The bridge as a Hummingbird application (its server, on ``AdminBridgeSettings/host`` and `port`).
    /// - Parameter onServerRunning: called once it listens, with its channel (tests read the port from it).
    public func application(
        onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        let responder = AdminBridgeResponder(
            forwarding: AdminBridgeForwarding(upstreamBase: settings.upstream, secret: settings.secret), client: client,
            timeout: TimeAmount(settings.timeout), logger: logger)
        return Application(
            responder: responder, configuration: .init(address: .hostname(settings.host, port: settings.port), serverName: nil),
            onServerRunning: onServerRunning, logger: logger)
    }

    /// Closes the connections to the upstream; call it once the application has stopped.
    public func shutdown() async throws { try await client.shutdown() }
}

/// Answers each request by forwarding it (``AdminBridgeForwarding``) or with the bridge's own refusal.
struct AdminBridgeResponder: HTTPResponder {
    typealias Context = BasicRequestContext
    let forwarding: AdminBridgeForwarding
    let client: HTTPClient
    let timeout: TimeAmount
    let logger: Logger

    func respond(to request: Request, context: Context) async throws -> Response {
        let started = ContinuousClock.now
        var metadata: Logger.Metadata = ["method": "\(request.method)", "path": "\(request.uri.path)"]
        defer {
            metadata["ms"] = "\((ContinuousClock.now - started).inMilliseconds)"
            logger.debug("forwarded", metadata: metadata)
        }
        do {
            let outgoing = try forwarded(request)
            let answer: HTTPClientResponse
            do { answer = try await client.execute(outgoing, timeout: timeout, logger: logger) } catch {
                logger.warning("the upstream Flint did not answer", metadata: ["path": "\(request.uri.path)", "error": "\(error)"])
                throw Self.refusal(for: error)
            }
            metadata["status"] = "\(answer.status.code)"
            return Response(
                status: HTTPResponse.Status(code: Int(answer.status.code), reasonPhrase: answer.status.reasonPhrase),
                headers: AdminBridgeForwarding.responseHeaders(answer.headers), body: ResponseBody(asyncSequence: answer.body))
        } catch let error as AuthError {
            metadata["status"] = "\(error.status.code)"
            metadata["refused"] = "\(error.code)"
            return JSONReply.error(error)
        }
    }

    /// The request sent upstream: same method, target and body, headers as ``AdminBridgeForwarding`` says.
    private func forwarded(_ request: Request) throws(AuthError) -> HTTPClientRequest {
        var outgoing = HTTPClientRequest(url: try forwarding.url(for: request.head.path ?? "/"))
        outgoing.method = HTTPMethod(rawValue: request.method.rawValue)
        outgoing.headers = forwarding.requestHeaders(request.headers)
        if let length = request.headers[.contentLength].flatMap({ Int($0) }) {
            outgoing.body = .stream(request.body, length: .known(Int64(length)))
        } else if request.headers[.transferEncoding] != nil {
            outgoing.body = .stream(request.body, length: .unknown)
        }
        return outgoing
    }

    /// The bridge's answer when the upstream gave none: a timeout, or an upstream it could not reach or verify.
    static func refusal(for error: any Error) -> AuthError {
        if let error = error as? HTTPClientError, [.deadlineExceeded, .readTimeout, .connectTimeout, .getConnectionFromPoolTimeout].contains(error) {
            return AuthError.upstreamTimeout
        }
        return AuthError.upstreamUnavailable.with(detail: "\(error)")
    }
}
