import FlintCore
import FlintServerTestSupport
import FlintStore
import FlintTesting
import Foundation
import HTTPTypes
import Testing

@testable import FlintConsole
@testable import FlintServer

@Suite("The dashboard's usage over a year, its CSV download and the SMS budget chart")
struct ConsoleUsageTests {
    static let password = "correct horse battery"
    /// 2026-11-20T10:30:00Z.
    static let start = Instant(secondsSince1970: 1_795_170_600)

    /// A node on a clock at ``start`` with an operator of `role` signed in, for `body`.
    private func withUsage(
        role: ConsoleRole = .admin, _ body: @escaping @Sendable (API, ConsoleOperator, TestNode) async throws -> Void
    ) async throws {
        let node = try await TestNode.make(clock: ManualClock(Self.start), modules: [ConsoleModule()])
        try await node.run { api in
            let op = try await api.addOperator("ops@example.com", role: role, password: Self.password, store: node.store)
            try await body(api, try await api.consoleSignIn(op, password: Self.password), node)
        }
    }

    /// Counts `n` sign-ins at `day` (hours since the start of the epoch's day are kept).
    private func addSignIns(_ n: Int64, at instant: Instant, _ node: TestNode) async throws {
        let hour = StatsTally.start(of: instant, bucket: .seconds(3600))
        try await node.store.write { tx in
            try await tx.addStats([
                StatCount(StatKey(bucket: hour, metric: .signIn, label: "phone"), count: n),
                StatCount(StatKey(bucket: hour, metric: .smsSent, label: "US"), count: n),
            ])
        }
    }

    @Test("90 days and a year by UTC day; hours are kept 400 days, then swept")
    func longPeriods() async throws {
        try await withUsage { api, op, node in
            try await addSignIns(4, at: Self.start - .seconds(200 * 86_400), node)
            try await addSignIns(2, at: Self.start - .seconds(60 * 86_400), node)
            let year = try await api.console(.get, "/console/dashboard?range=1y", cookie: op.cookie)
            #expect(year.status == .ok)
            #expect(year.text.contains(#"<a href="/console/dashboard?range=1y" aria-current="page">Last year</a>"#))
            #expect(year.text.contains(#"<desc id="sign-ins-d">6 in the last 365 days: phone 6. Busiest: 2026-05-04 UTC, 4.</desc>"#))
            #expect(year.text.contains("<tr><th scope=\"row\">2026-05</th><td>4</td><td>4</td></tr>"), "the table sums a year's days by month")
            #expect(year.text.contains("<tr><th scope=\"row\">2026-09</th><td>2</td><td>2</td></tr>"))
            #expect(year.text.contains("<summary>Numbers by month (each day is in the CSV download)</summary>"))
            #expect(
                year.text.contains(#">Jun</text>"#) && year.text.contains(#">2026</text>"#), "a year's axis names each month, January by its year")
            #expect(year.text.contains(#"href="/console/usage.csv?range=1y""#))
            let quarter = try await api.console(.get, "/console/dashboard?range=90d", cookie: op.cookie)
            #expect(quarter.text.contains(#"<desc id="sign-ins-d">2 in the last 90 days: phone 2."#))

            node.clock.advance(by: .seconds(210 * 86_400))
            try await ReloadService(flows: node.server.flows, modules: node.server.modules).sweep()
            let kept = try await node.store.read { try await $0.stats(from: .epoch, to: node.clock.now(), bucket: .seconds(86_400)) }
            #expect(kept.map(\.count) == [2, 2], "270 days old: kept; 410 days old: swept")
        }
    }

    @Test("the CSV: one row per UTC day under the documented header, CRLF, as an attachment; any operator downloads it")
    func csv() async throws {
        try await withUsage(role: .read) { api, op, node in
            try await addSignIns(3, at: Self.start - .seconds(86_400), node)
            _ = try await api.signIn("+16505550101")
            let reply = try await api.console(.get, "/console/usage.csv?range=30d", cookie: op.cookie)
            #expect(reply.status == .ok)
            #expect(reply.headers[.contentType] == "text/csv; charset=utf-8; header=present")
            #expect(reply.headers[.contentDisposition] == #"attachment; filename="flint-usage-2026-10-22-to-2026-11-20.csv""#)
            let lines = reply.text.components(separatedBy: "\r\n")
            #expect(lines.first == "date,sign_ins,new_users,sms_sent,sms_refused,emails_sent,emails_failed,errors")
            #expect(lines.count == 32 && lines.last == "", "a header, 30 days, each line ended by CRLF")
            #expect(lines[1] == "2026-10-22,0,0,0,0,0,0,0")
            #expect(lines[29] == "2026-11-19,3,0,3,0,0,0,0")
            #expect(lines[30] == "2026-11-20,1,1,1,0,0,0,0")
            let year = try await api.console(.get, "/console/usage.csv?range=1y", cookie: op.cookie)
            #expect(year.text.components(separatedBy: "\r\n").count == 367)
            let hours = try await api.console(.get, "/console/usage.csv?range=24h", cookie: op.cookie)
            #expect(hours.status == .badRequest && hours.text.contains("30d, 90d or 1y"))
            #expect(try await api.console(.get, "/console/usage.csv").headers[.location] == "/console/sign-in")
        }
    }

    @Test("RFC 4180 quoting: a field with a comma, a quote or a line break is quoted, its quotes doubled")
    func quoting() {
        #expect(ConsoleUsageCSV.field("2026-11-20") == "2026-11-20")
        #expect(ConsoleUsageCSV.field("a,b") == #""a,b""#)
        #expect(ConsoleUsageCSV.field(#"say "hi""#) == #""say ""hi""""#)
        #expect(ConsoleUsageCSV.field("one\r\ntwo") == "\"one\r\ntwo\"")
        #expect(ConsoleUsageCSV.record(["a", "b,c"]) == "a,\"b,c\"\r\n")
    }

    @Test("today's SMS by country against the daily budget: a line in the chart, its text alternative and the table")
    func smsBudget() async throws {
        try await withUsage { api, op, _ in
            try await api.patchConfig(#"{"flint":{"smsLimits":{"dailyBudget":8,"perCountryPerHour":5}}}"#, mask: "flint.smsLimits")
            _ = try await api.signIn("+16505550101")
            _ = try await api.signIn("+16505550102")
            _ = try await api.sendCode("+447700900123")
            let html = try await api.console(.get, "/console/dashboard", cookie: op.cookie).text
            #expect(html.contains(#"<h2 id="sms-budget-h">SMS today by country, against the limits</h2>"#))
            #expect(html.contains(#"<desc id="sms-budget-d">3 in today (2026-11-20, UTC): sent 3. Most: US, 2. Daily budget: 8.</desc>"#))
            #expect(html.contains(#"<line class="limit""#))
            #expect(html.contains("Daily budget 8</text>"))
            #expect(html.contains(#"<tr><th scope="row">US</th><td data-label="Sent today">2</td><td data-label="Refused today">0</td>"#))
            #expect(
                html.contains(
                    #"<td data-label="Share of budget">25.0 %</td><td data-label="Busiest hour">2 at 10:00</td><td data-label="Hourly cap">5</td>"#))
            #expect(html.contains("8 texts per UTC day in all; 5 per country per hour. 3 sent today."))
            #expect(!html.contains("style="))
        }
    }

    @Test("without texts and without a budget the section says so")
    func emptyBudget() async throws {
        try await withUsage { api, op, _ in
            try await api.patchConfig(#"{"flint":{"smsLimits":{"dailyBudget":0}}}"#, mask: "flint.smsLimits")
            let html = try await api.console(.get, "/console/dashboard", cookie: op.cookie).text
            #expect(html.contains("No SMS today."))
            #expect(html.contains("no daily budget (0 turns it off)"))
            #expect(html.contains(#"None in today (2026-11-20, UTC)."#))
        }
    }
}
