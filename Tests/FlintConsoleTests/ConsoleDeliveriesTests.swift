import FlintCore
import FlintServerTestSupport
import FlintStore
import FlintTesting
import Foundation
import HTTPTypes
import Testing

@testable import FlintConsole
@testable import FlintServer

@Suite("The console's deliveries page")
struct ConsoleDeliveriesTests {
    static let password = "correct horse battery"

    /// A node (dev mode unless `devMode` is false) with an admin operator signed in, for `body`.
    private func withDeliveries(
        devMode: Bool = true, _ body: @escaping @Sendable (API, ConsoleOperator, TestNode) async throws -> Void
    ) async throws {
        let node = try await TestNode.make(modules: [ConsoleModule()]) { $0.devMode = devMode }
        try await node.run { api in
            let op = try await api.addOperator("ops@example.com", password: Self.password, store: node.store)
            try await body(api, try await api.consoleSignIn(op, password: Self.password), node)
        }
    }

    /// The page's HTML for `query`.
    private func page(_ api: API, _ op: ConsoleOperator, _ query: String = "") async throws -> String {
        let reply = try await api.console(.get, "/console/deliveries" + (query.isEmpty ? "" : "?" + query), cookie: op.cookie)
        #expect(reply.status == .ok, "\(reply.text)")
        return reply.text
    }

    /// The recipients of the page's rows, top to bottom.
    private func recipients(_ html: String) -> [String] {
        html.components(separatedBy: #"<tr><td data-label="Created">"#).dropFirst().compactMap { row in
            row.components(separatedBy: #"<td data-label="To">"#).dropFirst().first?.components(separatedBy: "</td>").first
        }
    }

    /// Appends `count` texts to `to`, one millisecond apart from `at`.
    private func texts(_ count: Int, to: String, at: Instant, in store: any AuthStore) async throws {
        try await store.write { tx in
            for i in 0..<count {
                var message = OutboxMessage(
                    channel: .sms, recipient: to, body: "b", locale: "en", createdAt: at + .milliseconds(i), code: "12345\(i % 10)")
                message.status = .sent
                try await tx.appendOutbox(message)
            }
        }
    }

    @Test("newest first, filtered by channel, status and a recipient typed in any format")
    func filters() async throws {
        try await withDeliveries { api, op, _ in
            _ = try await api.sendCode("+16505550101")
            _ = try await api.sendSignInLink("reader@example.com")
            _ = try await api.sendCode("+447700900123")
            #expect(recipients(try await page(api, op)) == ["+447700900123", "reader@example.com", "+16505550101"])
            #expect(recipients(try await page(api, op, "channel=sms")) == ["+447700900123", "+16505550101"])
            #expect(recipients(try await page(api, op, "channel=email&status=dev")) == ["reader@example.com"])
            let typed = try await page(api, op, "to=" + ConsoleRoutes.encode("+1 (650) 555-0101"))
            #expect(recipients(typed) == ["+16505550101"])
            #expect(typed.contains(#"value="+1 (650) 555-0101""#), "the filter keeps what was typed")
            #expect(recipients(try await page(api, op, "to=Reader%40Example.com")) == ["reader@example.com"])
            let none = try await page(api, op, "channel=email&status=failed")
            #expect(recipients(none).isEmpty && none.contains("No message matches these filters."))
            let selected = try await page(api, op, "channel=sms&status=bogus")
            #expect(selected.contains(#"<option value="sms" selected>sms</option>"#))
            #expect(recipients(selected).count == 2, "an unknown status filters nothing")
        }
    }

    @Test("pages of 50 in keyset order, the filters carried to the next page")
    func paging() async throws {
        try await withDeliveries { api, op, node in
            try await texts(60, to: "+16505550102", at: node.clock.now(), in: node.store)
            try await texts(3, to: "+16505550103", at: node.clock.now() + .seconds(1), in: node.store)
            let first = try await page(api, op, "channel=sms&to=%2B16505550102")
            #expect(recipients(first).count == 50)
            let link = try #require(API.field(first, after: #"<p><a href=""#, until: "\""))
            let next = link.replacingOccurrences(of: "&amp;", with: "&")
            #expect(next.hasPrefix("/console/deliveries?before=") && next.hasSuffix("&channel=sms&to=%2B16505550102"), "\(next)")
            let second = try await api.console(.get, next, cookie: op.cookie)
            #expect(recipients(second.text) == Array(repeating: "+16505550102", count: 10))
            #expect(!second.text.contains("Older messages"))
        }
    }

    @Test("codes and links only in dev mode")
    func codesInDevModeOnly() async throws {
        try await withDeliveries(devMode: false) { api, op, node in
            try await texts(1, to: "+16505550104", at: node.clock.now(), in: node.store)
            let html = try await page(api, op)
            #expect(recipients(html) == ["+16505550104"])
            #expect(!html.contains("123450") && html.contains("Codes and links are never shown."))
        }
        try await withDeliveries { api, op, node in
            try await texts(1, to: "+16505550104", at: node.clock.now(), in: node.store)
            #expect(try await page(api, op).contains("<code>123450</code>"))
        }
    }
}
