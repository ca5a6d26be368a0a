import FlintCore
import FlintServerTestSupport
import FlintStore
import FlintTesting
import Foundation
import HTTPTypes
import HummingbirdTesting
import InMemoryTracing
import Logging
import Synchronization
import Testing
import Tracing

@testable import FlintServer

/// Notes, at each store transaction and each SMS hand-over, whether a span context was bound there: any span started
/// on the request path (by a tracer of Flint's or of a library's) binds one.
final class SpanContextProbe: SMSSender {
    private let seen = Mutex<[String]>([])

    /// What ran, with `traced` or `untraced` (`sms traced`, `write untraced`).
    var notes: [String] { seen.withLock { $0 } }

    func note(_ what: String) { seen.withLock { $0.append("\(what) \(InstrumentationContext.current == nil ? "untraced" : "traced")") } }

    func send(_ message: SMSMessage) async throws { note("sms") }

    /// The store, with each transaction noted.
    struct Store: AuthStore {
        let base: any AuthStore
        let probe: SpanContextProbe

        func write<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) async throws -> T) async throws -> T {
            probe.note("write")
            return try await base.write(body)
        }

        func read<T: Sendable>(_ body: @escaping @Sendable (any StoreReader) async throws -> T) async throws -> T {
            probe.note("read")
            return try await base.read(body)
        }

        func close() async throws { try await base.close() }
        func announce(_ change: StoreChange) async { await base.announce(change) }
        func changes() -> AsyncStream<StoreChange> { base.changes() }
    }
}

@Suite("Tracing")
struct TracingTests {
    /// Sends a code to Alice on a node with `tracer` (none: tracing off); the probe sees the request's transactions
    /// and its hand-over (what the node did while starting is forgotten first).
    private func sendCode(tracer: (any Tracer)?) async throws -> (notes: [String], status: HTTPResponse.Status) {
        var logger = Logger(label: "tracing-test")
        logger.logLevel = .critical
        let probe = SpanContextProbe()
        let store = try await SQLiteStore(path: nil, logger: logger)
        var settings = ServerSettings()
        settings.tracer = tracer
        let server = try await FlintServer(settings: settings, store: SpanContextProbe.Store(base: store, probe: probe), sms: probe, logger: logger)
        let started = probe.notes.count
        let status = try await server.application.test(.router) { client in
            try await API(client: client, clock: ManualClock()).post(Path.send, ["phoneNumber": alice]).status
        }
        try await store.close()
        return (Array(probe.notes.dropFirst(started)), status)
    }

    @Test("with tracing off (the default) a request starts no span: no store transaction and no provider call runs in one")
    func offMeansNoSpan() async throws {
        #expect(ServerSettings().tracer == nil, "tracing is off unless flint serve is given an endpoint")
        let (notes, status) = try await sendCode(tracer: nil)
        #expect(status == .ok)
        #expect(notes.contains("sms untraced"))
        #expect(notes.contains("write untraced"))
        #expect(!notes.contains { $0.hasSuffix(" traced") }, "\(notes)")
    }

    @Test("with a tracer, the request's span is named by its route template and parents its store transactions and the SMS hand-over")
    func onTracesTheRequest() async throws {
        let tracer = InMemoryTracer()
        let (notes, status) = try await sendCode(tracer: tracer)
        #expect(status == .ok)
        #expect(notes.contains("sms traced") && notes.contains("write traced"), "\(notes)")
        let spans = tracer.finishedSpans
        let request = try #require(spans.first { $0.kind == .server }, "\(spans.map(\.operationName))")
        #expect(request.operationName == "POST /identitytoolkit.googleapis.com/v1/accounts:sendVerificationCode")
        #expect(request.attributes["http.route"]?.toSpanAttribute() == .string("/identitytoolkit.googleapis.com/v1/accounts:sendVerificationCode"))
        #expect(request.attributes["http.response.status_code"]?.toSpanAttribute() == .int64(200))
        let writes = spans.filter { $0.operationName == "store.write" && $0.traceID == request.traceID }
        #expect(!writes.isEmpty)
        #expect(writes.allSatisfy { $0.parentSpanID == request.spanID && $0.kind == .client })
        for span in spans {
            span.attributes.forEach { key, value in
                #expect(!"\(value)".contains("6505553434"), "\(span.operationName) \(key) holds the phone number")
            }
        }
    }
}
