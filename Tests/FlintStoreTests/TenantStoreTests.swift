import FlintCore
import FlintStore
import FlintTesting
import Testing

@Suite("Tenant storage: by primary key, listed in keyset pages")
struct TenantStoreTests {
    static func tenant(_ id: String, _ name: String = "Acme", at: Instant = 1) -> TenantRecord {
        TenantRecord(id: id, document: #"{"displayName":"\#(name)"}"#, createdAt: at)
    }

    @Test("a tenant is stored once per ID, read, replaced and deleted", arguments: Engine.all)
    func lifecycle(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        #expect(try await store.write { try await $0.insertTenant(Self.tenant("acme-x7k2q")) })
        #expect(try await store.write { try await $0.insertTenant(Self.tenant("acme-x7k2q", "Other")) } == false, "a taken ID stores nothing")
        #expect(try await store.read { try await $0.tenant(id: "acme-x7k2q") } == Self.tenant("acme-x7k2q"))
        #expect(try await store.write { try await $0.updateTenant(id: "acme-x7k2q", document: #"{"displayName":"Renamed"}"#) })
        #expect(try await store.read { try await $0.tenant(id: "acme-x7k2q") }?.document == #"{"displayName":"Renamed"}"#)
        #expect(try await store.write { try await $0.updateTenant(id: "nobody", document: "{}") } == false)
        #expect(try await store.write { try await $0.deleteTenant(id: "acme-x7k2q") } == 0, "a tenant without users")
        #expect(try await store.write { try await $0.deleteTenant(id: "acme-x7k2q") } == nil)
        #expect(try await store.read { try await $0.tenant(id: "acme-x7k2q") } == nil)
        try await store.close()
    }

    @Test("10,000 tenants list in ID order, a page at a time, and each resolves by its ID", arguments: Engine.all)
    func manyTenants(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        let ids = (0..<10_000).map { "t\(String($0, radix: 36))-\($0 % 7)" }
        for batch in stride(from: 0, to: ids.count, by: 1000) {
            let slice = Array(ids[batch..<(batch + 1000)])
            try await store.write { tx in for id in slice { _ = try await tx.insertTenant(Self.tenant(id)) } }
        }
        var listed: [String] = []
        var after: String?
        var pages = 0
        repeat {
            let page = try await store.read { [after] in try await $0.tenants(after: after, limit: 1000) }
            listed += page.map(\.id)
            after = page.count == 1000 ? page.last?.id : nil
            pages += 1
        } while after != nil
        #expect(listed == ids.sorted(by: { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }), "code-point order on both engines")
        #expect(pages == 11, "ten full pages, then an empty one")
        for id in [ids[0], ids[4_321], ids[9_999]] {
            #expect(try await store.read { try await $0.tenant(id: id) }?.id == id)
        }
        try await store.close()
    }
}
