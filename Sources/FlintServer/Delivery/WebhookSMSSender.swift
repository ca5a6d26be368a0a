public import AsyncHTTPClient
public import FlintCore
import Foundation
import NIOHTTP1
import Tracing

/// Hands each text to an operator's HTTPS endpoint — the bridge to any SMS provider — as signed JSON:
/// `{"to": "+1…", "body": "…", "locale": "fr", "code": "123456", "messageId": "…"}` with
/// `X-Flint-Signature` (``WebhookSignature``). A 2xx answer means accepted; 4xx refused; 429/5xx retried once.
public struct WebhookSMSSender: SMSSender {
    let url: String
    let secret: String
    let clock: any WallClock
    let client: HTTPClient
    /// Traces each call when set (``SMSProvider/sender(url:webhookSecret:clock:tracer:)``).
    var tracer: (any Tracer)?

    /// A sender posting to `url`, signing with `secret`.
    public init(url: String, secret: String, clock: any WallClock = SystemClock(), client: HTTPClient = .shared) {
        self.url = url
        self.secret = secret
        self.clock = clock
        self.client = client
    }

    struct Payload: Encodable {
        var to: String
        var body: String
        var locale: String
        var code: String
        var messageId: String
    }

    public func send(_ message: SMSMessage) async throws {
        let body = try JSONEncoder().encode(
            Payload(to: message.to, body: message.body, locale: message.locale, code: message.code, messageId: message.sessionID))
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(
            name: WebhookSignature.headerName,
            value: WebhookSignature.header(secret: secret, at: clock.now(), body: Array(body)))
        let answer = try await ProviderHTTP.send(request, body: Array(body), client: client, tracer: tracer)
        guard (200..<300).contains(answer.status) else { throw SMSDeliveryError(.refused, "HTTP \(answer.status)") }
    }
}
