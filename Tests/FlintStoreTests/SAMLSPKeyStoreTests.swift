import FlintCore
import FlintStore
import FlintTesting
import Testing

@Suite("SAML SP keys: one per provider and tenant, the first stored wins, replaced by a rewrap or a rotation")
struct SAMLSPKeyStoreTests {
    static func record(_ tenant: TenantID, _ provider: String, _ marker: String, at createdAt: Instant = 1_000) -> SAMLSPKeyRecord {
        SAMLSPKeyRecord(
            tenant: tenant, providerID: provider, privateKeyPEM: "sealed:\(marker)", certificatePEM: "certificate \(marker)", createdAt: createdAt)
    }

    @Test("a key is stored once per provider of a tenant; a second candidate gets the stored one; replacing needs one", arguments: Engine.all)
    func storedOnce(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        let acme = TenantID(rawValue: "acme-1")
        #expect(try await store.read { try await $0.samlSPKey(tenant: .default, providerID: "saml.corp") } == nil)
        let first = try await store.write { try await $0.ensureSAMLSPKey(Self.record(.default, "saml.corp", "a")) }
        #expect(first == Self.record(.default, "saml.corp", "a"))
        let second = try await store.write { try await $0.ensureSAMLSPKey(Self.record(.default, "saml.corp", "b", at: 2_000)) }
        #expect(second == first, "the first stored wins")
        let tenant = try await store.write { try await $0.ensureSAMLSPKey(Self.record(acme, "saml.corp", "c")) }
        #expect(tenant == Self.record(acme, "saml.corp", "c"), "a tenant's provider of the same ID has its own")
        #expect(try await store.read { try await $0.samlSPKeys(tenant: nil) } == [first, tenant])
        #expect(try await store.read { try await $0.samlSPKeys(tenant: acme) } == [tenant])
        let rotated = Self.record(.default, "saml.corp", "d", at: 3_000)
        let replaced = try await store.write { try await $0.replaceSAMLSPKey(rotated) }
        #expect(replaced)
        #expect(try await store.read { try await $0.samlSPKey(tenant: .default, providerID: "saml.corp") } == rotated)
        #expect(try await store.read { try await $0.samlSPKey(tenant: acme, providerID: "saml.corp") } == tenant)
        let unknown = try await store.write { try await $0.replaceSAMLSPKey(Self.record(.default, "saml.none", "e")) }
        #expect(!unknown, "no key to replace")
        #expect(try await store.read { try await $0.samlSPKeys(tenant: nil) }.count == 2)
        try await store.close()
    }
}
