import ArgumentParser
import Logging
import OTel
import ServiceLifecycle
import Tracing

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `flint serve`'s tracing options: off unless an OTLP/HTTP endpoint is given, by `--otlp-endpoint`
/// (`FLINT_OTLP_ENDPOINT`) or OpenTelemetry's own `OTEL_EXPORTER_OTLP_ENDPOINT` / `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`.
/// swift-otel then applies the standard `OTEL_*` variables over these settings (`OTEL_SERVICE_NAME`,
/// `OTEL_TRACES_SAMPLER`, `OTEL_TRACES_SAMPLER_ARG`, `OTEL_EXPORTER_OTLP_HEADERS`…), as OpenTelemetry's SDKs do;
/// `OTEL_SDK_DISABLED=true` or `OTEL_TRACES_EXPORTER=none` keeps tracing off whatever else is set.
struct TracingOptions: ParsableArguments {
    @Option(
        help:
            "Trace requests to this OTLP/HTTP collector, e.g. http://127.0.0.1:4318 (spans go to its /v1/traces); off when not given (env FLINT_OTLP_ENDPOINT, or OTEL_EXPORTER_OTLP_ENDPOINT)."
    )
    var otlpEndpoint: String?
    @Option(
        help: "Share of new traces recorded, 0 to 1; a caller's sampled traceparent is always followed (env FLINT_TRACE_SAMPLE_RATIO; default 1).")
    var traceSampleRatio: Double = FlintEnvironment.double("traceSampleRatio") ?? 1
    @Option(help: "The service name spans carry (env FLINT_TRACE_SERVICE_NAME, or OTEL_SERVICE_NAME; default flint).")
    var traceServiceName: String = FlintEnvironment.string("traceServiceName") ?? "flint"

    /// The endpoint asked for, Flint's option first.
    private var endpoint: String? { otlpEndpoint ?? FlintEnvironment.string("otlpEndpoint") }

    /// Whether tracing is on: an endpoint given (Flint's or OpenTelemetry's variables), and not disabled through
    /// OpenTelemetry's variables.
    func enabled(environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        func set(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        if set("OTEL_SDK_DISABLED")?.lowercased() == "true" || set("OTEL_TRACES_EXPORTER")?.lowercased() == "none" { return false }
        return endpoint != nil || set("OTEL_EXPORTER_OTLP_ENDPOINT") != nil || set("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != nil
    }

    func validate() throws {
        guard (0...1).contains(traceSampleRatio) else { throw ValidationError("--trace-sample-ratio must be between 0 and 1") }
        if let endpoint {
            guard let url = URL(string: endpoint), url.scheme == "http" || url.scheme == "https", url.host != nil else {
                throw ValidationError("--otlp-endpoint must be an http(s) URL, e.g. http://127.0.0.1:4318")
            }
        }
        guard !traceServiceName.isEmpty else { throw ValidationError("--trace-service-name must not be empty") }
    }

    /// What every log line gets while tracing is on: the current span's `trace_id`, `span_id` and `trace_flags`
    /// (none outside a span); `nil` when tracing is off, so logging does no tracing work then.
    var logMetadataProvider: Logger.MetadataProvider? { enabled() ? OTel.makeLoggingMetadataProvider() : nil }

    /// The tracer and the service that exports its spans (it flushes what is left when the service group shuts it
    /// down), or `nil` when tracing is off.
    /// - Throws: when swift-otel refuses the configuration (an `OTEL_*` variable it cannot read, a protocol other
    ///   than OTLP/HTTP).
    func backend(logger: Logger) throws -> (tracer: any Tracer, service: any Service)? {
        guard enabled() else { return nil }
        var configuration = OTel.Configuration.default
        configuration.serviceName = traceServiceName
        configuration.diagnosticLogger = .custom(logger)
        configuration.metrics.enabled = false
        configuration.logs.enabled = false
        configuration.propagators = [.traceContext]
        configuration.traces.exporter = .otlp
        configuration.traces.otlpExporter.protocol = .httpProtobuf
        if let ratio = OTel.Configuration.TracesConfiguration.SamplerConfiguration.parentBasedTraceIDRatio(ratio: traceSampleRatio) {
            configuration.traces.sampler = ratio
        }
        if let endpoint {
            // As OTEL_EXPORTER_OTLP_ENDPOINT: the collector's base URL, spans posted to its /v1/traces.
            var base = endpoint
            while base.hasSuffix("/") { base.removeLast() }
            configuration.traces.otlpExporter.endpoint = base.hasSuffix("/v1/traces") ? base : base + "/v1/traces"
        }
        let backend = try OTel.makeTracingBackend(configuration: configuration)
        let tracer: any Tracer = backend.factory
        let service: any Service = backend.service
        return (tracer, service)
    }
}
