import FlintCore
import FlintServerTestSupport
import FlintStore
import FlintTesting
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import FlintServer

@Suite("Prometheus metrics")
struct MetricsTests {
    @Test("/metrics answers the admin credential or the metrics token, in the text exposition format; nobody else")
    func access() async throws {
        try await withFlint(configure: { $0.metricsToken = "scrape-token-0123456789" }) { api in
            #expect(try await api.call(.get, "/metrics").status == .unauthorized)
            #expect(try await api.call(.get, API.keyed("/metrics")).status == .forbidden)
            #expect(try await api.call(.get, "/metrics", headers: [.authorization: "Bearer wrong"]).status == .unauthorized)
            let scraper = try await api.call(.get, "/metrics", headers: [.authorization: "Bearer scrape-token-0123456789"])
            #expect(scraper.status == .ok)
            #expect(scraper.headers[.contentType] == "text/plain; version=0.0.4; charset=utf-8")
            let admin = try await api.admin(.get, "/metrics")
            #expect(admin.status == .ok)
            #expect(admin.text.contains("# TYPE flint_http_request_duration_seconds histogram"))
        }
    }

    @Test("requests by route template, method and status, with latency buckets; unknown paths and methods stay bounded")
    func requests() async throws {
        try await withFlint { api in
            let user = try await api.signIn(alice)
            _ = try await api.lookup(user.idToken)
            _ = try await api.call(.get, "/no/such/path/\(UUID().uuidString)")
            _ = try await api.call(HTTPRequest.Method("FROB")!, "/no/such/path")
            _ = try await api.admin(.post, "\(Path.v1)/projects/other-project/accounts:lookup", body: "{}")
            let metrics = try await api.metrics()
            let send = "route=\"\(Path.send)\",method=\"POST\",status=\"200\""
            #expect(metrics["flint_http_request_duration_seconds_count{\(send)}"] == 1)
            #expect(metrics["flint_http_request_duration_seconds_bucket{\(send),le=\"+Inf\"}"] == 1)
            #expect(metrics["flint_http_request_duration_seconds_count{route=\"\(Path.lookup)\",method=\"POST\",status=\"200\"}"] == 1)
            #expect(metrics["flint_http_request_duration_seconds_count{route=\"unmatched\",method=\"GET\",status=\"404\"}"] == 1)
            #expect(metrics["flint_http_request_duration_seconds_count{route=\"unmatched\",method=\"OTHER\",status=\"404\"}"] == 1)
            let operatorRoute = "\(Path.v1)/projects/{project}/accounts:lookup"
            #expect(metrics["flint_http_request_duration_seconds_count{route=\"\(operatorRoute)\",method=\"POST\",status=\"404\"}"] == 1)
            #expect(!metrics.text.contains(alice), "no label carries a request's values")
        }
    }

    @Test("sign-ins by method and outcome: success, Firebase's error code, and the second-factor challenge")
    func signIns() async throws {
        try await withFlint { api in
            let user = try await api.signIn(alice)
            _ = user
            let session = try await api.sendCode(bob)
            #expect(try await api.verify(session, code: "000000").errorCode == "INVALID_CODE")
            #expect(try await api.post(Path.v3 + "/signupNewUser", [:]).errorCode == "ADMIN_ONLY_OPERATION")
            try await api.patchConfig(#"{"signIn":{"anonymous":{"enabled":true}}}"#, mask: "signIn.anonymous.enabled")
            #expect(try await api.post(Path.v3 + "/signupNewUser", [:]).status == .ok)
            try await api.enableMFA()
            let enrolled = try await api.enrollPhone(try await api.signInWithEmailLink("mfa@example.com"), "+1 650-555-0111")
            #expect(enrolled.status == .ok)
            _ = try await api.sendSignInLink("mfa@example.com")
            let oob = try await api.oobCode(for: "mfa@example.com").code
            let challenged = try await api.post(Path.emailLinkSignIn, ["email": "mfa@example.com", "oobCode": oob])
            #expect(challenged.string("mfaPendingCredential") != nil)
            let metrics = try await api.metrics()
            #expect(metrics["flint_sign_ins_total{method=\"phone\",outcome=\"success\"}"] == 1)
            #expect(metrics["flint_sign_ins_total{method=\"phone\",outcome=\"INVALID_CODE\"}"] == 1)
            #expect(metrics["flint_sign_ins_total{method=\"signUp\",outcome=\"success\"}"] == 1, "the v3 alias counts as its endpoint")
            #expect(metrics["flint_sign_ins_total{method=\"signUp\",outcome=\"ADMIN_ONLY_OPERATION\"}"] == 1)
            #expect(metrics["flint_sign_ins_total{method=\"emailLink\",outcome=\"success\"}"] == 1)
            #expect(metrics["flint_sign_ins_total{method=\"emailLink\",outcome=\"second_factor_required\"}"] == 1)
        }
    }

    @Test("custom-token sign-ins count as method custom on the v1 and v3 paths, refusals too, as the audit log names them")
    func customTokenSignIns() async throws {
        let node = try await TestNode.make()
        try await node.know(TestKeys.known)
        try await node.run { api in
            #expect(try await api.signInWithCustomToken(try api.customToken("metered"), path: Path.customTokenV1).status == .ok)
            #expect(try await api.signInWithCustomToken(try api.customToken("metered"), path: Path.customTokenV3).status == .ok)
            let stranger = try await api.signInWithCustomToken(try api.customToken("metered", key: TestKeys.unknown))
            #expect(stranger.errorCode == "CREDENTIAL_MISMATCH")
            let metrics = try await api.metrics()
            #expect(metrics["flint_sign_ins_total{method=\"custom\",outcome=\"success\"}"] == 2)
            #expect(metrics["flint_sign_ins_total{method=\"custom\",outcome=\"CREDENTIAL_MISMATCH\"}"] == 1)
            let failures = try await api.auditEvents("kind=SIGN_IN_FAILED")
            #expect(failures.compactMap { $0["detail"]?["method"]?.stringValue } == ["custom"])
        }
    }

    @Test("codes sent and refused by region and reason; limit refusals by route")
    func codes() async throws {
        try await withFlint(clock: ManualClock(Instant(secondsSince1970: 1_767_225_600))) { api in
            for _ in 0..<5 {
                _ = try await api.sendCode(alice)
                api.clock.advance(by: .seconds(301))
            }
            #expect(try await api.post(Path.send, ["phoneNumber": alice]).errorCode == "TOO_MANY_ATTEMPTS_TRY_LATER")
            let policy = #"{"smsRegionConfig":{"allowlistOnly":{"allowedRegions":["US"]}}}"#
            #expect(try await api.admin(.patch, Path.config + "?updateMask=smsRegionConfig", body: policy).status == .ok)
            #expect(try await api.post(Path.send, ["phoneNumber": "+447700900123"]).errorCode == "OPERATION_NOT_ALLOWED")
            let metrics = try await api.metrics()
            #expect(metrics["flint_sms_codes_sent_total{region=\"US\",purpose=\"signIn\"}"] == 5)
            #expect(metrics["flint_sms_codes_refused_total{region=\"US\",reason=\"limit\"}"] == 1)
            #expect(metrics["flint_sms_codes_refused_total{region=\"GB\",reason=\"region\"}"] == 1)
            #expect(metrics["flint_limit_refusals_total{route=\"\(Path.send)\",code=\"TOO_MANY_ATTEMPTS_TRY_LATER\"}"] == 1)
        }
    }

    @Test("delivery results: a text the provider refused, then one it took; an email handed to SMTP")
    func deliveries() async throws {
        let sms = FlakySender(failures: 1)
        let node = try await TestNode.make(sms: sms, email: ScriptedEmailSender([]))
        try await node.run { api in
            #expect(try await api.post(Path.send, ["phoneNumber": alice]).status == .internalServerError)
            _ = try await api.sendCode(alice)
            #expect(try await api.sendSignInLink("someone@example.com").status == .ok)
            // The email is delivered after the answer: its result is counted before its outcome is written.
            var metrics = try await api.metrics()
            _ = try await node.afterWrites {
                metrics = try await api.metrics()
                return metrics["flint_deliveries_total{channel=\"email\",result=\"sent\"}"] != nil
            }
            #expect(metrics["flint_deliveries_total{channel=\"email\",result=\"sent\"}"] == 1)
            #expect(metrics["flint_deliveries_total{channel=\"sms\",result=\"failed\"}"] == 1)
            #expect(metrics["flint_deliveries_total{channel=\"sms\",result=\"sent\"}"] == 1)
            #expect(metrics["flint_sms_codes_refused_total{region=\"US\",reason=\"delivery\"}"] == 1)
            #expect(metrics["flint_sms_codes_sent_total{region=\"US\",purpose=\"signIn\"}"] == 1)
        }
    }

    @Test("store latency and use, outbox backlog and signing-key age are exposed")
    func state() async throws {
        // Without the node's background services, whose flushes (once a second) would write while the metrics are
        // read: every write is the test's own, so the gauge of writes in flight must be back at 0.
        let node = try await TestNode.make()
        var application = node.server.application
        application.services = []
        try await application.test(.router) { client in
            let api = API(client: client, clock: node.clock)
            _ = try await api.signIn(alice)
            api.clock.advance(by: .seconds(90))
            let metrics = try await api.metrics()
            #expect((metrics["flint_store_operation_duration_seconds_count{operation=\"write\"}"] ?? 0) >= 2)
            #expect((metrics["flint_store_operation_duration_seconds_count{operation=\"read\"}"] ?? 0) >= 1)
            #expect(metrics["flint_store_operations_in_flight{operation=\"write\"}"] == 0)
            #expect(metrics["flint_outbox_backlog{channel=\"email\",status=\"queued\"}"] == 0)
            #expect((metrics["flint_signing_key_age_seconds"] ?? 0) >= 90)
            #expect(metrics["flint_signing_keys{state=\"active\"}"] == 1)
        }
        try await node.store.close()
    }

    @Test("docs/grafana-dashboard.json queries only metrics the server exposes, through its data source input")
    func dashboard() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("docs/grafana-dashboard.json"), encoding: .utf8)
        let dashboard = try JSONValue(parsing: Array(text.utf8))
        #expect(dashboard["__inputs"]?.arrayValue?.first?["name"]?.stringValue == "DS_PROMETHEUS")
        let panels = try #require(dashboard["panels"]?.arrayValue)
        let expressions = panels.flatMap { $0["targets"]?.arrayValue ?? [] }.compactMap { $0["expr"]?.stringValue }
        #expect(expressions.count >= 15)
        let names = Set(
            expressions.flatMap { expression in
                expression.matches(of: /flint_[a-z_]+/).map { match in
                    var name = String(match.output)
                    for suffix in ["_bucket", "_count", "_sum"] where name.hasSuffix(suffix) { name.removeLast(suffix.count) }
                    return name
                }
            })
        #expect(names.subtracting(FlintMetrics.Name.all).sorted() == [])
        #expect(Set(FlintMetrics.Name.all).subtracting(names).sorted() == [], "every metric has a panel")
    }
}
