import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import Tracing

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// An outgoing HTTP call (an SMS provider, APNs, an identity provider, a blocking function, a webhook, a breach range
/// endpoint). With no tracer it is `client.execute` and nothing else. With one, the call runs in a client span named
/// after its method and peer (`POST sms`), a child of the current span, and the request carries that span's W3C
/// `traceparent`. The span's attributes are `flint.peer`, `http.request.method`, `server.address`, `server.port` and
/// `http.response.status_code` (5xx marks an error, and so does a call that failed, with only its error type): never
/// the path, the query or a header, which may hold credentials or tokens.
enum OutgoingCall {
    static func execute(
        _ request: HTTPClientRequest, timeout: TimeAmount, client: HTTPClient, tracer: (any Tracer)?, peer: String
    ) async throws -> HTTPClientResponse {
        guard let tracer else { return try await client.execute(request, timeout: timeout) }
        let url = URL(string: request.url)
        let method = request.method.rawValue
        return try await inSpan(tracer: tracer, name: "\(method) \(peer)", peer: peer, host: url?.host, port: url?.port) { span in
            span.attributes["http.request.method"] = method
            var request = request
            tracer.inject(span.context, into: &request.headers, using: HTTPHeadersInjector())
            let response = try await client.execute(request, timeout: timeout)
            record(status: Int(response.status.code), on: span)
            return response
        }
    }

    /// Runs `body` (which makes the call) in a client span named `name`, with the peer's kind and address; a call that
    /// throws marks the span as an error, by error type only.
    static func inSpan<T>(
        tracer: any Tracer, name: String, peer: String, host: String?, port: Int?, _ body: (any Span) async throws -> T
    ) async throws -> T {
        let span = tracer.startSpan(name, context: InstrumentationContext.current ?? .topLevel, ofKind: .client)
        defer { span.end() }
        span.attributes["flint.peer"] = peer
        span.attributes["server.address"] = host
        span.attributes["server.port"] = port
        do {
            return try await InstrumentationContext.withValue(span.context) { try await body(span) }
        } catch {
            span.attributes["error.type"] = "\(type(of: error))"
            span.setStatus(SpanStatus(code: .error))
            throw error
        }
    }

    /// Notes an answer's status on a call's span.
    static func record(status: Int, on span: any Span) {
        span.attributes["http.response.status_code"] = status
        if status >= 500 { span.setStatus(SpanStatus(code: .error)) }
    }
}

/// Writes propagation fields (`traceparent`, `tracestate`) into an outgoing request's headers.
struct HTTPHeadersInjector: Injector {
    func inject(_ value: String, forKey key: String, into carrier: inout HTTPHeaders) {
        carrier.replaceOrAdd(name: key, value: value)
    }
}
