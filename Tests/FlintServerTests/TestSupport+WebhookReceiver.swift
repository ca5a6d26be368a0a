import Crypto
import FlintCore
import FlintServerTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Synchronization
import Testing

/// An event webhook receiver on loopback: records each request's Standard Webhooks headers and body, and answers with
/// the status `answer` gives for the request's number (0 for the first).
final class WebhookReceiver: Sendable {
    /// One request as received.
    struct Received: Sendable {
        var id: String
        var timestamp: String
        var signature: String
        var body: [UInt8]

        var json: JSONValue { (try? JSONValue(parsing: body)) ?? .null }
        var type: String? { json["type"]?.stringValue }
    }

    private struct State {
        var port = 0
        var received: [Received] = []
        var answer: @Sendable (Int) -> HTTPResponse.Status = { _ in .noContent }
    }

    private let state = Mutex(State())

    /// `http://127.0.0.1:<port>/hook`.
    var url: String { "http://127.0.0.1:\(state.withLock { $0.port })/hook" }

    var received: [Received] { state.withLock { $0.received } }

    /// How the receiver answers from now on, given the request's number.
    func answer(_ decide: @escaping @Sendable (Int) -> HTTPResponse.Status) {
        state.withLock { $0.answer = decide }
    }

    /// Runs `body` with the receiver listening.
    func serve<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        let router = Router()
        router.post("/hook") { request, _ -> Response in
            let bytes = Array(buffer: try await request.body.collect(upTo: 1 << 20))
            let header = { (name: String) in HTTPField.Name(name).flatMap { request.headers[$0] } ?? "" }
            let status = self.state.withLock { state in
                state.received.append(
                    Received(id: header("webhook-id"), timestamp: header("webhook-timestamp"), signature: header("webhook-signature"), body: bytes))
                return state.answer(state.received.count - 1)
            }
            return Response(status: status)
        }
        let result = Mutex<T?>(nil)
        try await Application(router: router).test(.live) { client in
            guard let port = client.port else { throw CancellationError() }
            self.state.withLock { $0.port = port }
            let value = try await body()
            result.withLock { $0 = value }
        }
        guard let value = result.withLock({ $0 }) else { throw CancellationError() }
        return value
    }
}

extension WebhookReceiver.Received {
    /// Whether the signature is `secret`'s over this request, computed here as Standard Webhooks specifies it:
    /// base64 of HMAC-SHA256 keyed with the base64-decoded secret after `whsec_`, over `id.timestamp.body`.
    func verifies(with secret: String) -> Bool {
        guard secret.hasPrefix("whsec_"), let key = Data(base64Encoded: String(secret.dropFirst(6))) else { return false }
        let mac = HMAC<SHA256>.authenticationCode(for: Array("\(id).\(timestamp).".utf8) + body, using: SymmetricKey(data: key))
        return signature.split(separator: " ").contains { $0 == "v1," + Data(mac).base64EncodedString() }
    }
}

extension Path {
    static let webhooks = "/flint/v1/projects/\(project)/webhooks"
    static let replayWebhook = "/flint/v1/projects/\(project)/webhookDeliveries:replay"
}

extension API {
    /// Subscribes `url` to `events` through the admin API; the subscription's ID and secret.
    func subscribe(_ url: String, _ events: [String]) async throws -> (id: String, secret: String) {
        let reply = try await admin(Path.webhooks, ["url": .string(url), "events": .array(events.map(JSONValue.string))])
        #expect(reply.status == .ok, "\(reply.text)")
        return (try #require(reply.string("id")), try #require(reply.string("secret")))
    }

    /// A subscription's deliveries, newest first, as the admin API lists them.
    func deliveries(_ id: String) async throws -> [JSONValue] {
        let reply = try await admin(.get, "\(Path.webhooks)/\(id)/deliveries")
        #expect(reply.status == .ok, "\(reply.text)")
        return reply["deliveries"]?.arrayValue ?? []
    }
}
