import AsyncHTTPClient
import FlintAuthTestSupport
import FlintTesting
import Foundation
import Testing

@Suite("End to end: tracing over OTLP/HTTP")
struct TracingEndToEndTests {
    static let sendPath = "/identitytoolkit.googleapis.com/v1/accounts:sendVerificationCode"
    static let signInPath = "/identitytoolkit.googleapis.com/v1/accounts:signInWithPhoneNumber"
    /// A caller's trace context (W3C's example IDs).
    static let callerTrace = "4bf92f3577b34da6a3ce929d0e0e4736"
    static let callerSpan = "00f067aa0ba902b7"

    /// A stand-in OpenTelemetry collector: answers every export with an empty protobuf answer and keeps the bodies.
    static func collector() throws -> ScriptedHTTPServer {
        try ScriptedHTTPServer { _ in ScriptedHTTPServer.Reply(status: 200, headers: ["Content-Type": "application/x-protobuf"]) }
    }

    /// Every span the collector received (the server has stopped, so its exporter has flushed them).
    static func spans(_ collector: ScriptedHTTPServer) throws -> [ExportedSpan] {
        #expect(!collector.requestLines.isEmpty, "the server exported nothing")
        #expect(collector.requestLines.allSatisfy { $0.hasPrefix("POST /v1/traces ") }, "\(collector.requestLines)")
        #expect(collector.requestHeaders.allSatisfy { $0["content-type"] == "application/x-protobuf" })
        return try collector.requestBodyBytes.flatMap { try OTLPTraces.spans(in: $0) }
    }

    @Test(
        "a phone sign-in's requests reach the collector as spans named by route, each parenting its store transactions and the SMS provider's call, in one trace with no secret in any attribute"
    )
    func phoneSignIn() async throws {
        let collector = try Self.collector()
        defer { collector.stop() }
        let provider = try ScriptedHTTPServer(script: [.status(201, #"{"sid":"SM1","status":"queued"}"#)])
        defer { provider.stop() }
        let (server, cleanUp) = try await phoneServer(
            providerPort: provider.port, twilioToken: "twilio-auth-secret",
            environment: ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:\(collector.port)", "OTEL_SERVICE_NAME": "flint-e2e"])
        defer { cleanUp() }
        defer { server.terminate() }

        let (sent, answer) = try await postJSON(.shared, server.base + Self.sendPath + "?key=k", ["phoneNumber": "+16505553434"])
        #expect(sent == 200, "\(answer)")
        let sessionInfo = try #require(answer["sessionInfo"] as? String)
        let text = (provider.requestBodies.first ?? "").removingPercentEncoding ?? ""
        let code = try #require(text.split(whereSeparator: { !$0.isNumber }).first { $0.count == 6 }.map(String.init), "\(text)")
        let (signed, tokens) = try await postJSON(.shared, server.base + Self.signInPath + "?key=k", ["sessionInfo": sessionInfo, "code": code])
        #expect(signed == 200, "\(tokens)")
        #expect(await server.stop() == 0)

        let spans = try Self.spans(collector)
        let send = try #require(spans.first { $0.name == "POST \(Self.sendPath)" }, "\(spans.map(\.name))")
        #expect(send.kind == 2 && send.parentSpanID.isEmpty && send.serviceName == "flint-e2e")
        #expect(send.attributes["http.route"] == Self.sendPath)
        #expect(send.attributes["http.request.method"] == "POST")
        #expect(send.attributes["http.response.status_code"] == "200")
        let children = spans.filter { $0.parentSpanID == send.spanID }
        #expect(children.allSatisfy { $0.traceID == send.traceID })
        #expect(children.contains { $0.name == "store.write" && $0.kind == 3 }, "\(children.map(\.name))")
        let sms = try #require(children.first { $0.name == "POST sms" }, "\(children.map(\.name))")
        #expect(sms.kind == 3 && sms.attributes["flint.peer"] == "sms" && sms.attributes["server.address"] == "127.0.0.1")
        #expect(sms.attributes["http.response.status_code"] == "201")
        #expect(provider.requestHeaders.first?["traceparent"] == "00-\(send.traceID)-\(sms.spanID)-01", "the provider is told the call's context")

        let signIn = try #require(spans.first { $0.name == "POST \(Self.signInPath)" })
        #expect(signIn.attributes["http.response.status_code"] == "200")
        #expect(spans.contains { $0.parentSpanID == signIn.spanID && $0.traceID == signIn.traceID && $0.name == "store.write" })

        let secrets = [
            "6505553434", code, sessionInfo, tokens["idToken"] as? String ?? "-", tokens["refreshToken"] as? String ?? "-", "twilio-auth-secret",
            "AC123", "admin-secret-123", "key=",
        ]
        for span in spans {
            for (key, value) in span.attributes {
                for secret in secrets { #expect(!value.contains(secret), "\(span.name): \(key) = \(value)") }
            }
        }
    }

    @Test("a caller's W3C traceparent is continued: the request's span joins the caller's trace, as a child of the caller's span")
    func continuesCallersTrace() async throws {
        let collector = try Self.collector()
        defer { collector.stop() }
        let data = temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let server = try await FlintProcess(dataDirectory: data, extraArguments: ["--otlp-endpoint", "http://127.0.0.1:\(collector.port)"])
        defer { server.terminate() }
        let (sent, _) = try await postJSON(
            .shared, server.base + Self.sendPath + "?key=k", ["phoneNumber": "+16505553434"],
            headers: [("traceparent", "00-\(Self.callerTrace)-\(Self.callerSpan)-01")])
        #expect(sent == 200)
        let (untraced, _) = try await postJSON(.shared, server.base + Self.sendPath + "?key=k", ["phoneNumber": "+16505550101"])
        #expect(untraced == 200)
        #expect(await server.stop() == 0)

        let requests = try Self.spans(collector).filter { $0.name == "POST \(Self.sendPath)" }
        #expect(requests.count == 2)
        #expect(requests.contains { $0.traceID == Self.callerTrace && $0.parentSpanID == Self.callerSpan })
        #expect(requests.contains { $0.traceID != Self.callerTrace && $0.parentSpanID.isEmpty }, "a request without one starts a trace")
        #expect(requests.allSatisfy { $0.serviceName == "flint" })
    }

    @Test("with --log-format json, the lines a traced request logs carry its trace_id and span_id; lines outside a request carry none")
    func logLinesCarryTraceIDs() async throws {
        let collector = try Self.collector()
        defer { collector.stop() }
        let data = temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let server = try await FlintProcess(
            dataDirectory: data, extraArguments: ["--log-format", "json", "--otlp-endpoint", "http://127.0.0.1:\(collector.port)"])
        defer { server.terminate() }
        let (sent, _) = try await postJSON(
            .shared, server.base + Self.sendPath + "?key=k", ["phoneNumber": "+16505553434"],
            headers: [("traceparent", "00-\(Self.callerTrace)-\(Self.callerSpan)-01")])
        #expect(sent == 200)
        #expect(await server.stop() == 0)

        let request = try #require(try Self.spans(collector).first { $0.name == "POST \(Self.sendPath)" })
        var requestLines = 0
        for line in server.log.split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
            let metadata = object["metadata"] as? [String: Any] ?? [:]
            switch object["message"] as? String {
            case "request":
                requestLines += 1
                #expect(metadata["trace_id"] as? String == Self.callerTrace, "\(line)")
                #expect(metadata["span_id"] as? String == request.spanID, "\(line)")
            case "flint listening":
                #expect(metadata["trace_id"] == nil, "\(line)")
            default: continue
            }
        }
        #expect(requestLines == 1, "the request's debug line")
    }
}
