import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import Tracing

/// One HTTP request to a delivery provider, sent again once when the provider could not be reached or answered
/// 429 or 5xx: a lost or failed attempt sends no text, so one retry cannot send two.
enum ProviderHTTP {
    /// The answer's status and (at most 64 KiB of) body.
    struct Answer: Sendable {
        var status: Int
        var body: [UInt8]
    }

    /// How long one attempt may take.
    static let timeout: TimeAmount = .seconds(10)
    /// The pause before the retry.
    static let retryDelay: Duration = .milliseconds(300)

    /// Sends `request` (its body given as bytes, so it can be sent twice), each attempt in a span of its own when
    /// `tracer` is set (``OutgoingCall``).
    static func send(
        _ request: HTTPClientRequest, body: [UInt8], client: HTTPClient, tracer: (any Tracer)? = nil
    ) async throws(SMSDeliveryError) -> Answer {
        var lastProblem = ""
        for attempt in 0..<2 {
            if attempt > 0 { try? await Task.sleep(for: retryDelay) }
            var request = request
            request.body = .bytes(body)
            do {
                let response = try await OutgoingCall.execute(request, timeout: timeout, client: client, tracer: tracer, peer: "sms")
                let bytes = try await response.body.collect(upTo: 1 << 16)
                let status = Int(response.status.code)
                if status == 429 || status >= 500 {
                    lastProblem = "HTTP \(status)"
                    continue
                }
                return Answer(status: status, body: Array(buffer: bytes))
            } catch {
                lastProblem = "\(type(of: error))"
            }
        }
        throw SMSDeliveryError(.unavailable, lastProblem)
    }
}
