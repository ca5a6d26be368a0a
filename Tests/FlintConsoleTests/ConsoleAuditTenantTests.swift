import FlintCore
import FlintServerTestSupport
import FlintStore
import FlintTesting
import Foundation
import HTTPTypes
import Testing

@testable import FlintConsole
@testable import FlintServer

@Suite("The console's audit log in a tenant: full pages of the tenant's events, from the store's tenant index")
struct ConsoleAuditTenantTests {
    /// Appends `count` events of each of `tenants` (`nil`: the project), interleaved, each named `probe-<tag>-<n>`.
    static func append(_ count: Int, from start: Int, _ tenants: [(tag: String, tenant: String?)], to store: any AuthStore) async throws {
        try await store.write { tx in
            for n in start..<start + count {
                for (tag, tenant) in tenants {
                    var detail: [String: JSONValue] = ["n": .string("probe-\(tag)-\(n)")]
                    if let tenant { detail["tenantId"] = .string(tenant) }
                    try await tx.appendAuditEvent(AuditEvent(at: Instant(Date()), kind: .adminAction, uid: "\(tag)-user", detail: detail))
                }
            }
        }
    }

    /// The `probe-<tag>-<n>` names on a page, in order.
    static func probes(_ html: String, _ tag: String) -> [String] {
        html.ranges(of: "probe-\(tag)-").map { range in "probe-\(tag)-" + html[range.upperBound...].prefix { $0.isNumber } }
    }

    /// The page's "Older events" link, unescaped.
    static func next(_ html: String) -> String? {
        guard let end = html.firstRange(of: #"" rel="next">"#) else { return nil }
        let before = html[..<end.lowerBound]
        guard let start = before.ranges(of: #"href=""#).last else { return nil }
        return String(before[start.upperBound...]).replacing("&amp;", with: "&")
    }

    @Test("a tenant's page lists 50 of its events a page, across the index's progress, never another tenant's or the project's")
    func tenantPages() async throws {
        let node = try await TestNode.make(modules: [ConsoleModule()])
        try await node.run { api in
            let op = try await api.consoleSignIn(
                try await api.addOperator("ops@example.com", password: consoleTestPassword, store: node.store), password: consoleTestPassword)
            let acme = try await ConsoleTenantsTests.createTenant(api, op, "acme-corp")
            let tenants: [(tag: String, tenant: String?)] = [("a", acme), ("p", nil), ("g", "globex-d3e4f")]
            // 35 events each before the indexes' progress, 35 each after it.
            try await Self.append(35, from: 1, tenants, to: node.store)
            _ = try await node.store.catchUpAuditIndex()
            try await Self.append(35, from: 36, tenants, to: node.store)

            var seen: [String] = []
            var path: String? = "/console/security?tenant=\(acme)"
            var pages: [Int] = []
            while let next = path {
                let page = try await api.console(.get, next, cookie: op.cookie)
                #expect(page.status == .ok)
                #expect(Self.probes(page.text, "p").isEmpty && Self.probes(page.text, "g").isEmpty, "only the tenant's events")
                let found = Self.probes(page.text, "a")
                pages.append(found.count)
                seen += found
                path = Self.next(page.text)
                #expect(path.map { $0.contains("tenant=\(acme)") } ?? true, "the next page stays in the tenant")
                if pages.count > 3 { break }
            }
            #expect(pages.first == 50, "a full first page: \(pages)")
            #expect(seen == (1...70).reversed().map { "probe-a-\($0)" }, "every event of the tenant once, newest first")

            let project = try await api.console(.get, "/console/security", cookie: op.cookie)
            #expect(Self.probes(project.text, "p") == (21...70).reversed().map { "probe-p-\($0)" }, "the project's newest 50")
            #expect(Self.probes(project.text, "a").isEmpty && Self.probes(project.text, "g").isEmpty)
            let account = try await api.console(.get, "/console/security?tenant=\(acme)&uid=g-user", cookie: op.cookie)
            #expect(Self.probes(account.text, "g").isEmpty, "another tenant's account is not listed in this tenant")
            let own = try await api.console(.get, "/console/security?tenant=\(acme)&uid=a-user&kind=ADMIN_ACTION", cookie: op.cookie)
            #expect(Self.probes(own.text, "a").count == 50)
        }
    }
}
