import FlintCore
import FlintStore
import FlintTesting
import Testing

/// The audit log's tenant index, written after commit by the account index's catch-up (migration 32): a tenant's
/// listing is whole however far the index has caught up, holds only that tenant's events, and the sweep cleans it.
@Suite("Audit log: the tenant index off the sign-in's transaction")
struct AuditTenantIndexTests {
    static let tenants: [TenantID] = [.default, TenantID(rawValue: "acme-a1b2c"), TenantID(rawValue: "globex-d3e4f")]

    /// Event `n`'s tenant: the project's, acme's and globex's in turn.
    static func tenant(_ n: Int64) -> TenantID { tenants[Int(n % 3)] }

    /// Event `n`'s account: one of two per tenant, none for every fifth event.
    static func uid(_ n: Int64) -> String? { n.isMultiple(of: 5) ? nil : "\(tenant(n).isDefault ? "project" : tenant(n).rawValue)-u\(n % 2)" }

    /// Event `n`'s kind: every seventh a lockout.
    static func kind(_ n: Int64) -> AuditKind { n.isMultiple(of: 7) ? .lockout : .signIn }

    /// Events `start`…`start + count - 1`, 1,000 ms apart, each in the tenant an origin in it records (`tenantId`).
    static func append(_ count: Int, to store: any AuthStore, from start: Int64 = 1, tenants only: TenantID? = nil) async throws {
        try await store.write { tx in
            for n in start..<start + Int64(count) {
                let tenant = only ?? Self.tenant(n)
                let detail: [String: JSONValue] =
                    tenant.isDefault ? ["n": .number(Double(n))] : ["n": .number(Double(n)), "tenantId": .string(tenant.rawValue)]
                try await tx.appendAuditEvent(AuditEvent(at: Instant(millisecondsSince1970: n * 1_000), kind: kind(n), uid: uid(n), detail: detail))
            }
        }
    }

    /// The events (their `n`) of `query`'s filters, as listed a page of `size` at a time.
    static func listing(_ store: any AuthStore, _ query: AuditQuery, size: Int = 4) async throws -> [Int64] {
        var seen: [Int64] = []
        var query = query
        query.limit = size
        while true {
            let page = try await store.read { [query] in try await $0.auditEvents(query) }
            seen += page.map { $0.at.millisecondsSince1970 / 1_000 }
            guard page.count == size, let last = page.last?.id else { return seen }
            query.beforeID = last
        }
    }

    /// What `listing` should find among events 1…`count`, newest first.
    static func expected(_ count: Int64, _ query: AuditQuery, from first: Int64 = 1) -> [Int64] {
        (first...count).reversed().filter { n -> Bool in
            let named = (query.tenant == nil || query.tenant == tenant(n)) && (query.uid == nil || query.uid == uid(n))
            let time = n * 1_000 >= (query.since?.millisecondsSince1970 ?? 0) && n * 1_000 < (query.until?.millisecondsSince1970 ?? .max)
            return named && time && (query.kind == nil || query.kind == kind(n))
        }
    }

    /// Every tenant's queries a console page in it makes: alone, by account (its own and another tenant's), by kind, by time.
    static var queries: [AuditQuery] {
        ([nil] + tenants).flatMap { tenant -> [AuditQuery] in
            let own = tenant.map { $0.isDefault ? "project-u1" : "\($0.rawValue)-u1" } ?? "acme-a1b2c-u0"
            return [
                AuditQuery(tenant: tenant), AuditQuery(uid: own, tenant: tenant), AuditQuery(uid: "globex-d3e4f-u1", tenant: tenant),
                AuditQuery(tenant: tenant, kind: .lockout), AuditQuery(tenant: tenant, kind: .signIn),
                AuditQuery(uid: own, tenant: tenant, kind: .signIn), AuditQuery(tenant: tenant, since: 9_000, until: 31_000),
                AuditQuery(uid: own, tenant: tenant, kind: .signIn, since: 4_000, until: 38_000),
            ]
        }
    }

    /// Checks every query of ``queries`` against events 1…`count`, in pages of 1, 3 and 4.
    static func check(_ store: any AuthStore, _ count: Int64, from first: Int64 = 1, _ stage: String) async throws {
        for (index, query) in queries.enumerated() {
            let size = [4, 3, 1][index % 3]
            let found = try await listing(store, query, size: size)
            #expect(found == expected(count, query, from: first), "\(stage): \(query), pages of \(size)")
        }
    }

    @Test("a tenant's events are listed whole, in pages, alone and with every filter, before, across and after the catch-up", arguments: Engine.all)
    func wholeAcrossProgress(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        try await Self.append(40, to: store)
        try await Self.check(store, 40, "nothing indexed")
        let horizon = try await store.write { try await $0.auditIndexHorizon() }
        #expect(try await store.write { try await $0.indexAuditEvents(through: 17, limit: 1_000) } == 17)
        try await Self.check(store, 40, "indexed through 17")
        #expect(try await store.write { try await $0.indexAuditEvents(through: horizon, limit: 10) } == 10)
        try await Self.check(store, 40, "indexed through 27")
        #expect(try await store.catchUpAuditIndex(batch: 5) == 13)
        try await Self.check(store, 40, "caught up")
        try await Self.append(10, to: store, from: 41)
        try await Self.check(store, 50, "10 events past the progress")
        #expect(try await store.catchUpAuditIndex() == 10)
        try await Self.check(store, 50, "caught up again")
        try await store.close()
    }

    @Test("a tenant's listing never shows another tenant's or the project's events, whatever the account or page asked", arguments: Engine.all)
    func isolation(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        try await Self.append(30, to: store)
        _ = try await store.write { try await $0.indexAuditEvents(through: 15, limit: 1_000) }
        let acme = Self.tenants[1]
        #expect(try await store.read { try await $0.auditEvents(AuditQuery(tenant: acme, limit: 100)) }.count == 10)
        for query in [
            AuditQuery(tenant: acme, limit: 100), AuditQuery(uid: "globex-d3e4f-u0", tenant: acme), AuditQuery(uid: "project-u1", tenant: acme),
        ] {
            let events = try await store.read { try await $0.auditEvents(query) }
            #expect(events.allSatisfy { $0.detail["tenantId"]?.stringValue == acme.rawValue && $0.tenant == acme }, "\(query)")
        }
        let project = try await store.read { try await $0.auditEvents(AuditQuery(tenant: .default, limit: 100)) }
        #expect(project.count == 10 && project.allSatisfy { $0.detail["tenantId"] == nil }, "the project's events name no tenant")
        #expect(try await store.read { try await $0.auditEvents(AuditQuery(tenant: TenantID(rawValue: "nobody-zzzzz"))) }.isEmpty)
        // A page token of another tenant's listing reads on from there, still in this tenant.
        let globexPage = try await store.read { try await $0.auditEvents(AuditQuery(tenant: Self.tenants[2], limit: 3)) }
        let next = try await store.read { try await $0.auditEvents(AuditQuery(tenant: acme, beforeID: globexPage.last?.id, limit: 100)) }
        #expect(!next.isEmpty && next.allSatisfy { $0.tenant == acme })
        try await store.close()
    }

    @Test(
        "the retention sweep drops the tenant index's old entries; once the log is empty, new events are listed in their own tenant",
        arguments: Engine.all)
    func sweep(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        try await Self.append(20, to: store)
        _ = try await store.catchUpAuditIndex()
        #expect(try await store.write { try await $0.deleteAuditEvents(before: 10_500) } == 10)
        try await Self.check(store, 20, from: 11, "after the first sweep")
        #expect(try await store.write { try await $0.deleteAuditEvents(before: 99_000) } == 10)
        #expect(try await Self.listing(store, AuditQuery(tenant: Self.tenants[1])).isEmpty)
        // SQLite numbers the next events 1 again: the project's events take the numbers acme's had, which the sweep
        // removed from the tenant index, so they never show in acme's listing.
        try await Self.append(7, to: store, tenants: .default)
        #expect(try await store.catchUpAuditIndex() == 7)
        for tenant in Self.tenants.dropFirst() { #expect(try await Self.listing(store, AuditQuery(tenant: tenant)).isEmpty, "\(tenant)") }
        #expect(try await Self.listing(store, AuditQuery(tenant: .default)) == Array((1...7).reversed()))
        try await store.close()
    }
}
