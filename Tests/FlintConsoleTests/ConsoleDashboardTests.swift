import FlintCore
import FlintServerTestSupport
import FlintStore
import FlintTesting
import Foundation
import HTTPTypes
import Logging
import Testing

@testable import FlintConsole
@testable import FlintServer

@Suite("The console's dashboard")
struct ConsoleDashboardTests {
    static let password = "correct horse battery"
    /// 2026-11-20T10:30:00Z.
    static let start = Instant(secondsSince1970: 1_795_170_600)

    /// A node on a clock at ``start``, with an admin operator signed in, for `body`.
    private func withDashboard(_ body: @escaping @Sendable (API, ConsoleOperator, TestNode) async throws -> Void) async throws {
        let node = try await TestNode.make(clock: ManualClock(Self.start), modules: [ConsoleModule()])
        try await node.run { api in
            let op = try await api.addOperator("ops@example.com", password: Self.password, store: node.store)
            try await body(api, try await api.consoleSignIn(op, password: Self.password), node)
        }
    }

    /// Signs `op` in again (after the clock moved past the session's idle timeout).
    private func again(_ api: API, _ op: ConsoleOperator) async throws -> ConsoleOperator {
        try await api.consoleSignIn(op, password: Self.password)
    }

    /// The dashboard page's HTML.
    private func page(_ api: API, _ op: ConsoleOperator, range: String = "24h") async throws -> String {
        let reply = try await api.console(.get, "/console/dashboard?range=\(range)", cookie: op.cookie)
        #expect(reply.status == .ok, "\(reply.text)")
        return reply.text
    }

    @Test("sign-ins by method, new users, SMS by country, emails and errors: the numbers /metrics counts, in SVG with text")
    func counts() async throws {
        try await withDashboard { api, op, _ in
            _ = try await api.signIn("+16505550101")
            _ = try await api.signIn("+16505550102")
            let session = try await api.sendCode("+447700900123")
            #expect(try await api.verify(session, code: "000000").errorCode == "INVALID_CODE")
            try await api.patchConfig(#"{"signIn":{"anonymous":{"enabled":true}}}"#, mask: "signIn.anonymous.enabled")
            #expect(try await api.post(Path.v3 + "/signupNewUser", [:]).status == .ok)
            _ = try await api.sendSignInLink("reader@example.com")

            let html = try await page(api, op)
            for (name, value) in [
                ("Sign-ins", 3), ("New users", 3), ("SMS sent", 3), ("SMS refused", 0), ("Emails sent", 1), ("Emails failed", 0), ("Errors", 1),
            ] {
                #expect(html.contains(#"<li><span class="name">\#(name)</span> <span class="value">\#(value)</span></li>"#), "\(name) \(value)")
            }
            #expect(html.contains(#"<desc id="sign-ins-d">3 in the last 24 hours: phone 2, anonymous 1. Busiest: 2026-11-20 10:00 UTC, 3.</desc>"#))
            #expect(html.contains(#"<desc id="new-users-d">3 in the last 24 hours: phone 2, anonymous 1."#))
            #expect(html.contains(#"<desc id="sms-sent-d">3 in the last 24 hours: US 2, GB 1."#))
            #expect(html.contains(#"<desc id="emails-d">1 in the last 24 hours: sent 1."#))
            #expect(html.contains(#"<desc id="errors-d">1 in the last 24 hours: INVALID_CODE 1."#))
            #expect(html.contains("None in the last 24 hours."), "an empty chart says so instead of drawing nothing")
            #expect(html.contains(#"<svg viewBox="0 0 760 204" role="img" aria-labelledby="sign-ins-t sign-ins-d""#))
            #expect(html.contains(#"<title id="sign-ins-t">Sign-ins by method</title>"#))
            #expect(html.contains("<tr><th scope=\"row\">2026-11-20 10:00</th><td>2</td><td>1</td><td>3</td></tr>"), "the numbers in a table")
            #expect(!html.contains("style="), "nothing inline for the CSP to refuse")
            #expect(!html.contains("<script"))

            let metrics = try await api.metrics()
            #expect(metrics["flint_sign_ins_total{method=\"phone\",outcome=\"success\"}"] == 2)
            #expect(metrics["flint_sign_ins_total{method=\"signUp\",outcome=\"success\"}"] == 1, "/metrics keeps the endpoint's method")
            #expect(metrics["flint_sms_codes_sent_total{region=\"US\",purpose=\"signIn\"}"] == 2)
            #expect(metrics["flint_sms_codes_sent_total{region=\"GB\",purpose=\"signIn\"}"] == 1)
        }
    }

    @Test("events count in the hour they happen; the 30-day view sums UTC days; hours older than 400 days are swept")
    func buckets() async throws {
        try await withDashboard { api, op, node in
            _ = try await api.signIn("+16505550101")
            node.clock.advance(by: .seconds(2 * 3600))
            _ = try await api.signIn("+16505550101")
            let hours = try await page(api, try await again(api, op))
            #expect(hours.contains("<tr><th scope=\"row\">2026-11-20 10:00</th><td>1</td><td>1</td></tr>"))
            #expect(hours.contains("<tr><th scope=\"row\">2026-11-20 11:00</th><td>0</td><td>0</td></tr>"))
            #expect(hours.contains("<tr><th scope=\"row\">2026-11-20 12:00</th><td>1</td><td>1</td></tr>"))
            #expect(hours.contains(#"<a href="/console/dashboard?range=24h" aria-current="page">Last 24 hours</a>"#))

            node.clock.advance(by: .seconds(22 * 3600))
            _ = try await api.signIn("+16505550101")
            let signedIn = try await again(api, op)
            let days = try await page(api, signedIn, range: "30d")
            #expect(days.contains("<tr><th scope=\"row\">2026-11-20</th><td>2</td><td>2</td></tr>"))
            #expect(days.contains("<tr><th scope=\"row\">2026-11-21</th><td>1</td><td>1</td></tr>"))
            #expect(days.contains(#"<desc id="sign-ins-d">3 in the last 30 days: phone 3. Busiest: 2026-11-20 UTC, 2.</desc>"#))
            let hoursNow = try await page(api, signedIn)
            #expect(hoursNow.contains(#"<desc id="sign-ins-d">2 in the last 24 hours: phone 2."#), "10:00 is more than 24 hours ago")

            node.clock.advance(by: .seconds(401 * 86_400))
            try await ReloadService(flows: node.server.flows, modules: node.server.modules).sweep()
            let kept = try await node.store.read { try await $0.stats(from: .epoch, to: node.clock.now(), bucket: .seconds(3600)) }
            #expect(kept.isEmpty)
        }
    }

    @Test("/console and a completed sign-in lead to the dashboard; a request without a session goes to the sign-in page")
    func home() async throws {
        try await withDashboard { api, op, _ in
            #expect(try await api.console(.get, "/console").headers[.location] == "/console/dashboard")
            #expect(try await api.console(.get, "/console/sign-in", cookie: op.cookie).headers[.location] == "/console/dashboard")
            let html = try await page(api, op, range: "bogus")
            #expect(html.contains(#"<a href="/console/dashboard" aria-current="page">Dashboard</a>"#))
            #expect(html.contains("Last 24 hours"))
            let signedOut = try await api.console(.get, "/console/dashboard")
            #expect(signedOut.status == .seeOther && signedOut.headers[.location] == "/console/sign-in")
        }
    }

    @Test("another node's counts, flushed to the shared store, add up with this node's on the page")
    func nodesAddUp() async throws {
        try await withDashboard { api, op, node in
            _ = try await api.signIn("+16505550101")
            let other = StatsTally(clock: node.clock)
            other.note(.signIn, "phone")
            other.note(.signIn, "password")
            try await other.flush(to: node.store)
            let html = try await page(api, op)
            #expect(html.contains(#"<desc id="sign-ins-d">3 in the last 24 hours: phone 2, password 1."#))
        }
    }

    @Test("counts the store could not take are kept for the next flush")
    func keptAfterFailure() async throws {
        let tally = StatsTally(clock: ManualClock(Self.start))
        tally.note(.signIn, "phone")
        let closed = try await SQLiteStore(path: nil, logger: Logger(label: "flint-test"))
        try await closed.close()
        await #expect(throws: (any Error).self) { try await tally.flush(to: closed) }
        tally.note(.signIn, "phone")
        let store = try await SQLiteStore(path: nil, logger: Logger(label: "flint-test"))
        try await tally.flush(to: store)
        let counts = try await store.read { try await $0.stats(from: .epoch, to: Self.start + .seconds(3600), bucket: .seconds(3600)) }
        #expect(counts.map(\.count) == [2])
        try await store.close()
    }
}
