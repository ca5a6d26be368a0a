import HTTPTypes
import Hummingbird
import Tracing

/// One server span per request, installed only when the node has a tracer (``ServerSettings/tracer``): with tracing
/// off the router has no such middleware and a request does no tracing work at all.
///
/// The span continues the caller's trace when the request carries a W3C `traceparent` (and `tracestate`), and starts
/// a new one otherwise. Its name is the method and the route template Hummingbird matched
/// (`POST /identitytoolkit.googleapis.com/v1/accounts:signInWithPassword`, `GET unmatched` when none did), never the
/// raw path; its attributes are `http.request.method`, `http.route` and `http.response.status_code`, nothing from the
/// query, the headers or the body (API keys, tokens, emails, phone numbers and codes travel there). A 5xx answer marks
/// the span as an error. It sits outside the request log, so the log's lines of a traced request carry its IDs.
struct RequestSpanMiddleware<Context: RequestContext>: RouterMiddleware {
    let tracer: any Tracer

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var parent = InstrumentationContext.topLevel
        tracer.extract(request.headers, into: &parent, using: HTTPFieldsExtractor())
        let route = Self.route(context)
        let span = tracer.startSpan("\(request.method.rawValue) \(route)", context: parent, ofKind: .server)
        defer { span.end() }
        span.attributes["http.request.method"] = request.method.rawValue
        span.attributes["http.route"] = route
        do {
            let response = try await InstrumentationContext.withValue(span.context) { try await next(request, context) }
            Self.record(status: response.status.code, on: span)
            return response
        } catch {
            Self.record(status: (error as? any HTTPResponseError)?.status.code ?? 500, on: span)
            span.attributes["error.type"] = "\(type(of: error))"
            throw error
        }
    }

    /// The matched template; Hummingbird names its not-found responder `NotFound`.
    static func route(_ context: Context) -> String {
        guard let path = context.endpointPath, path != "NotFound" else { return "unmatched" }
        return path
    }

    private static func record(status: Int, on span: any Span) {
        span.attributes["http.response.status_code"] = status
        if status >= 500 { span.setStatus(SpanStatus(code: .error)) }
    }
}

/// Reads propagation fields (`traceparent`, `tracestate`) from a request's header fields.
struct HTTPFieldsExtractor: Extractor {
    func extract(key: String, from carrier: HTTPFields) -> String? {
        guard let name = HTTPField.Name(key) else { return nil }
        return carrier[name]
    }
}
