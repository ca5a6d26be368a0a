import HTTPTypes
public import Hummingbird
import NIOCore
import Synchronization

/// The node's front door: `GET /healthz` and `GET /readyz` (``NodeReadiness``) answered here, before the router, so
/// no middleware of the API runs for them (no API key, no abuse limits, no metrics, no request log: a load balancer
/// probing every few seconds costs a path comparison and, at most once per ``NodeReadiness/checkInterval``, one read);
/// every other request goes to the node's router once it is installed, and is answered 503 until then.
///
/// `flint serve` listens with it before the store opens, so a node that connects or migrates answers its probes
/// "not ready" instead of refusing connections.
public final class NodeResponder: HTTPResponder, Sendable {
    public typealias Context = FlintRequestContext

    /// Liveness: the process serves HTTP (200 whatever the database says).
    public static let livenessPath = "/healthz"
    /// Readiness: 200 when the node should get traffic, else 503 with the reason.
    public static let readinessPath = "/readyz"

    /// What it answers for.
    public let readiness: NodeReadiness
    private let router = Mutex<RouterResponder<FlintRequestContext>?>(nil)

    /// A front door whose router comes later (``install(_:)``).
    public init(readiness: NodeReadiness) {
        self.readiness = readiness
    }

    /// From now on requests other than the probes go to `router`.
    public func install(_ router: RouterResponder<FlintRequestContext>) {
        self.router.withLock { $0 = router }
    }

    public func respond(to request: Request, context: FlintRequestContext) async throws -> Response {
        let path = request.uri.path
        if path == Self.livenessPath { return Self.probe(request, status: .ok, body: #"{"status":"ok"}"#) }
        if path == Self.readinessPath {
            guard let reason = await readiness.notReadyReason() else { return Self.probe(request, status: .ok, body: #"{"ready":true}"#) }
            return Self.probe(request, status: .serviceUnavailable, body: Self.notReady(reason))
        }
        if let router = router.withLock({ $0 }) { return try await router.respond(to: request, context: context) }
        let headers: HTTPFields = [.contentType: "application/json", .cacheControl: "no-store", .retryAfter: "1"]
        return Response(status: .serviceUnavailable, headers: headers, body: .init(byteBuffer: ByteBuffer(string: Self.notReady(.starting))))
    }

    /// `{"ready":false,"reason":"…"}`: the reasons are fixed words, never an error's text.
    private static func notReady(_ reason: NodeReadiness.Reason) -> String {
        #"{"ready":false,"reason":""# + reason.rawValue + #""}"#
    }

    /// A probe's answer: JSON, never cached; `HEAD` gets the status alone, other methods than `GET` 405.
    private static func probe(_ request: Request, status: HTTPResponse.Status, body: String) -> Response {
        var headers: HTTPFields = [.contentType: "application/json", .cacheControl: "no-store"]
        switch request.method {
        case .get: return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: body)))
        case .head: return Response(status: status, headers: headers)
        default:
            headers[.allow] = "GET, HEAD"
            return Response(status: .methodNotAllowed, headers: headers)
        }
    }
}
