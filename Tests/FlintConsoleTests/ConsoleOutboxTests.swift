import FlintCore
import FlintServerTestSupport
import FlintStore
import FlintTesting
import Foundation
import HTTPTypes
import Testing

@testable import FlintConsole
@testable import FlintServer

@Suite("The console's dev outbox page")
struct ConsoleOutboxTests {
    static let password = "correct horse battery"

    /// A node (dev mode unless `devMode` is false) with an admin operator signed in, for `body`.
    private func withConsole(devMode: Bool = true, _ body: @escaping @Sendable (API, ConsoleOperator) async throws -> Void) async throws {
        let node = try await TestNode.make(modules: [ConsoleModule()]) { $0.devMode = devMode }
        try await node.run { api in
            let op = try await api.addOperator("ops@example.com", password: Self.password, store: node.store)
            try await body(api, try await api.consoleSignIn(op, password: Self.password))
        }
    }

    @Test("dev mode: the codes and links that can still be used, newest first, the link one click away")
    func devMode() async throws {
        try await withConsole { api, op in
            let used = try await api.sendCode("+16505550101")
            _ = try await api.sendCode("+447700900123")
            _ = try await api.sendSignInLink("reader@example.com")
            let code = try await api.pendingCode(for: "+447700900123")
            let link = try await api.oobCode(for: "reader@example.com").link
            let reply = try await api.console(.get, "/console/outbox", cookie: op.cookie)
            #expect(reply.status == .ok)
            let html = reply.text
            #expect(html.contains(#"<a href="/console/outbox">Outbox</a>"#), "the dev-mode banner points at it")
            #expect(html.contains(#"<a href="/console/outbox" aria-current="page">Outbox</a>"#))
            #expect(html.contains(#"<tr><td data-label="To">+447700900123</td><td data-label="Code"><code class="code">\#(code)</code></td>"#))
            let escaped = link.replacingOccurrences(of: "&", with: "&amp;")
            #expect(
                html.contains(
                    #"<td data-label="To">reader@example.com</td><td data-label="Kind">EMAIL_SIGNIN</td><td data-label="Link"><a href="\#(escaped)">"#
                ))
            let uk = try #require(html.range(of: "+447700900123")), us = try #require(html.range(of: "+16505550101"))
            #expect(uk.lowerBound < us.lowerBound, "newest first")

            let usCode = try await api.pendingCode(for: "+16505550101")
            #expect(try await api.verify(used, code: usCode).status == .ok)
            let after = try await api.console(.get, "/console/outbox", cookie: op.cookie).text
            #expect(!after.contains("+16505550101"), "a spent code is gone")
        }
    }

    @Test("production: no outbox page and no link to it")
    func production() async throws {
        try await withConsole(devMode: false) { api, op in
            let reply = try await api.console(.get, "/console/outbox", cookie: op.cookie)
            #expect(reply.status == .notFound)
            let users = try await api.console(.get, "/console/users", cookie: op.cookie)
            #expect(users.status == .ok && !users.text.contains("/console/outbox"))
        }
    }
}
