import FlintCore
import FlintTesting
import Testing

@testable import FlintStore

@Suite("SAML SP keys: per provider and tenant, several during a rollover, deleted with their tenant; migration 29")
struct SAMLSPKeyStoreTests {
    static func record(
        _ tenant: TenantID, _ provider: String, _ marker: String, at createdAt: Instant = 1_000, activated: Bool = true
    ) -> SAMLSPKeyRecord {
        SAMLSPKeyRecord(
            tenant: tenant, providerID: provider, privateKeyPEM: "sealed:\(marker)", certificatePEM: "certificate \(marker)", createdAt: createdAt,
            activatedAt: activated ? createdAt : nil)
    }

    @Test("a provider's keys are known by their creation instant, listed newest first; replaced and deleted one by one", arguments: Engine.all)
    func keysOfAProvider(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        let acme = TenantID(rawValue: "acme-1")
        let first = Self.record(.default, "saml.corp", "a")
        #expect(try await store.write { try await $0.insertSAMLSPKey(first) })
        #expect(try await !store.write { try await $0.insertSAMLSPKey(Self.record(.default, "saml.corp", "b")) }, "one key per instant")
        let waiting = Self.record(.default, "saml.corp", "c", at: 2_000, activated: false)
        #expect(try await store.write { try await $0.insertSAMLSPKey(waiting) })
        let tenant = Self.record(acme, "saml.corp", "d")
        #expect(try await store.write { try await $0.insertSAMLSPKey(tenant) })
        #expect(try await store.read { try await $0.samlSPKeys(tenant: .default, providerID: "saml.corp") } == [waiting, first])
        #expect(try await store.read { try await $0.samlSPKeys(tenant: nil, providerID: nil) } == [waiting, first, tenant])
        #expect(try await store.read { try await $0.samlSPKeys(tenant: acme, providerID: nil) } == [tenant])
        // An activation, a scheduled retirement and a rewrap replace one key's row.
        var activated = waiting
        activated.activatedAt = 3_000
        var retiring = first
        (retiring.retireAt, retiring.privateKeyPEM) = (4_000, "sealed:rewrapped")
        let (staged, old) = (activated, retiring)
        #expect(try await store.write { try await $0.replaceSAMLSPKey(staged) })
        #expect(try await store.write { try await $0.replaceSAMLSPKey(old) })
        #expect(try await store.read { try await $0.samlSPKeys(tenant: .default, providerID: "saml.corp") } == [staged, old])
        #expect(try await !store.write { try await $0.replaceSAMLSPKey(Self.record(.default, "saml.none", "e")) }, "no such key")
        try await store.write { try await $0.deleteSAMLSPKey(old) }
        #expect(try await store.read { try await $0.samlSPKeys(tenant: nil, providerID: nil) } == [staged, tenant])
        try await store.close()
    }

    @Test("deleting a tenant deletes its providers' SP keys in the same transaction, and no other tenant's", arguments: Engine.all)
    func deletedWithTheirTenant(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        let project = Self.record(.default, "saml.corp", "a")
        let other = Self.record(TenantID(rawValue: "other-1"), "saml.corp", "b")
        try await store.write { tx in
            for id in ["acme-1", "other-1"] { _ = try await tx.insertTenant(TenantRecord(id: id, document: "{}", createdAt: 1)) }
            for record in [
                project, other, Self.record(TenantID(rawValue: "acme-1"), "saml.corp", "c"), Self.record(TenantID(rawValue: "acme-1"), "saml.x", "d"),
            ] {
                _ = try await tx.insertSAMLSPKey(record)
            }
        }
        #expect(try await store.write { try await $0.deleteTenant(id: "acme-1") } == 0)
        #expect(try await store.read { try await $0.samlSPKeys(tenant: nil, providerID: nil) } == [project, other])
        try await store.close()
    }

    @Test(
        "migration 29 deletes the keys of providers and tenants deleted before, keeps the others signing as they did",
        arguments: Engine.all)
    func migrationDropsOrphans(engine: Engine) async throws {
        let insertKey = "INSERT INTO saml_sp_keys (tenant_id, provider_id, private_key_pem, certificate_pem, created_at) VALUES (?, ?, ?, ?, ?)"
        func key(_ tenant: String, _ provider: String) -> (String, [SQLValue]) {
            (insertKey, [.text(tenant), .text(provider), .text("sealed:\(tenant)/\(provider)"), .text("certificate"), .integer(5_000)])
        }
        let saml = #"{"idpConfig":{"idpEntityId":"https://idp.example"},"spConfig":{"spEntityId":"flint"}}"#
        let location = try await MigrationTests.database(
            engine, through: 28,
            [
                ("INSERT INTO project_config (id, document) VALUES (1, ?)", [.text(#"{"inboundSamlConfigs":{"saml.kept":\#(saml)}}"#)]),
                (
                    "INSERT INTO tenants (id, document, created_at) VALUES (?, ?, 1)",
                    [.text("acme-1"), .text(#"{"displayName":"Acme","inboundSamlConfigs":{"saml.t.1":\#(saml)}}"#)]
                ),
                key("", "saml.kept"), key("", "saml.gone"), key("", "saml.t.1"), key("acme-1", "saml.t.1"), key("acme-1", "saml.kept"),
                key("gone-1", "saml.t.1"),
            ])
        let (store, _) = try await makeStore(engine, location: location)
        let kept = try await store.read { try await $0.samlSPKeys(tenant: nil, providerID: nil) }
        #expect(kept.map { "\($0.tenant.rawValue)/\($0.providerID)" } == ["/saml.kept", "acme-1/saml.t.1"])
        #expect(kept.allSatisfy { $0.activatedAt == $0.createdAt && $0.retireAt == nil && $0.privateKeyPEM.hasPrefix("sealed:") })
        // A rollover's second key fits beside the first now.
        #expect(try await store.write { try await $0.insertSAMLSPKey(Self.record(.default, "saml.kept", "new", at: 6_000, activated: false)) })
        try await store.close()
    }
}
