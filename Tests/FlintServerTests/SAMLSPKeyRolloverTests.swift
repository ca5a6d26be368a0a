import FlintCore
import FlintServerTestSupport
import FlintStore
import FlintTesting
import Foundation
import HTTPTypes
import HummingbirdTesting
import Logging
import Testing

@testable import FlintServer

extension StoreEngine {
    /// Runs `body` against a node on the store at `location` with `key` as its master key, with that store and the
    /// node's clock at hand, then closes the store.
    func withNodeAndStore(
        _ location: String, key: MasterKey?, clock: ManualClock = ManualClock(Instant(Date())),
        _ body: @escaping @Sendable (API, any AuthStore, ManualClock) async throws -> Void
    ) async throws {
        let store = try await open(location)
        do {
            var settings = ServerSettings()
            (settings.port, settings.masterKey) = (0, key)
            var logger = Logger(label: "saml-sp-keys")
            logger.logLevel = .warning
            let server = try await FlintServer(settings: settings, store: store, clock: clock, logger: logger)
            try await server.application.test(.router) { client in try await body(API(client: client, clock: clock), store, clock) }
        } catch {
            try? await store.close()
            throw error
        }
        try await store.close()
    }
}

/// A SAML provider's SP key rollover (the old key signs until the new one is activated, both published in between),
/// keys made only by writes (never by a read), and deleted with their provider or tenant.
@Suite("SAML SP keys: staged rollover, no write on read, deleted with their provider")
struct SAMLSPKeyRolloverTests {
    /// The certificates of a provider's `spConfig.spCertificates`, in order.
    static func certificates(_ api: API, _ path: String = "\(Path.samlIdps)/saml.corp") async throws -> [String] {
        let reply = try await api.admin(.get, path)
        #expect(reply.status == .ok, "\(reply.text)")
        return (reply["spConfig"]?["spCertificates"]?.arrayValue ?? []).compactMap { $0["x509Certificate"]?.stringValue }
    }

    /// The IdP URL a signed start of `saml.corp` answers.
    static func start(_ api: API, _ session: String) async throws -> String {
        let start = try await api.handler(API.redirectQuery("saml.corp", sessionID: session))
        #expect(start.status == .seeOther, "\(start.text)")
        return try #require(start.headers[.location])
    }

    static func rows(_ store: any AuthStore) async throws -> [SAMLSPKeyRecord] {
        try await store.read { try await $0.samlSPKeys(tenant: nil, providerID: nil) }
    }

    @Test(
        "a rollover: the old key signs until the activation while both certificates are published, then the new; each step audited",
        arguments: StoreEngine.all)
    func stagedRollover(_ engine: StoreEngine) async throws {
        let key = MasterKey.generate()
        try await engine.withNodeAndStore(try await engine.freshLocation(), key: key) { api, store, clock in
            try await api.allowApp()
            try await api.configureSAML()
            let patched = try await api.admin(
                .patch, "\(Path.samlIdps)/saml.corp?updateMask=idpConfig.signRequest", body: #"{"idpConfig":{"signRequest":true}}"#)
            #expect(patched.status == .ok, "\(patched.text)")
            let old = try #require(try await Self.certificates(api).first)
            let keys = SAMLServiceProviderKeys(store: store, masterKey: key, clock: clock)
            let rotate = { @Sendable (step: SAMLServiceProviderKeys.RotationStep) in
                try await keys.rotate(tenant: .default, providerID: "saml.corp", step: step)
            }
            await #expect(throws: AuthError.self, "nothing to activate yet") { try await rotate(.activate(retireAfter: nil)) }
            clock.advance(by: .seconds(60))
            let staged = try await rotate(.stage)
            let new = try #require(staged.last?.certificatePEM)
            #expect(staged.map(\.certificatePEM) == [old, new] && staged.last?.activatedAt == nil)
            // The overlap: both published (the signing one first), the old one signing.
            #expect(try await Self.certificates(api) == [old, new])
            let during = try await Self.start(api, "s1")
            #expect(try SAMLSPKeyTests.verifies(during, certificate: old))
            #expect(try !SAMLSPKeyTests.verifies(during, certificate: new))
            await #expect(throws: AuthError.self, "one new key at a time") { try await rotate(.stage) }
            await #expect(throws: AuthError.self, "the old key still signs") { try await rotate(.retire) }
            clock.advance(by: .seconds(60))
            #expect(try await rotate(.activate(retireAfter: nil)).map(\.certificatePEM) == [new, old])
            #expect(try await Self.certificates(api) == [new, old], "the old one stays published until retired")
            let after = try await Self.start(api, "s2")
            #expect(try SAMLSPKeyTests.verifies(after, certificate: new))
            #expect(try !SAMLSPKeyTests.verifies(after, certificate: old))
            #expect(try await rotate(.retire).map(\.certificatePEM) == [new])
            #expect(try await Self.certificates(api) == [new])
            #expect(try await Self.rows(store).count == 1, "the retired key is deleted")
            let events = try await store.read { try await $0.auditEvents(AuditQuery(kind: .configChanged)) }
            for step in ["samlSPKeyStaged", "samlSPKeyActivated", "samlSPKeysRetired"] {
                #expect(events.contains { $0.detail[step] == "saml.corp" }, "\(step) audited")
            }
        }
    }

    @Test("an overlap given at activation retires the old key by itself: unpublished once it passes, deleted at the next start")
    func scheduledRetirement() async throws {
        let engine = StoreEngine.sqlite
        let location = try await engine.freshLocation()
        // One clock for both nodes: the second starts past the overlap.
        let clock = ManualClock(Instant(Date()))
        try await engine.withNodeAndStore(location, key: nil, clock: clock) { api, store, clock in
            try await api.configureSAML()
            let keys = SAMLServiceProviderKeys(store: store, masterKey: nil, clock: clock)
            clock.advance(by: .seconds(1))
            _ = try await keys.rotate(tenant: .default, providerID: "saml.corp", step: .stage)
            _ = try await keys.rotate(tenant: .default, providerID: "saml.corp", step: .activate(retireAfter: .seconds(3_600)))
            #expect(try await Self.certificates(api).count == 2)
            clock.advance(by: .seconds(3_601))
            #expect(try await Self.certificates(api).count == 1, "past the overlap the old one is published no more")
            #expect(try await Self.rows(store).count == 2, "a read deletes nothing")
        }
        try await engine.withNodeAndStore(location, key: nil, clock: clock) { api, store, _ in
            let rows = try await Self.rows(store)
            #expect(rows.count == 1, "the start deleted the retired key")
            #expect(try await Self.certificates(api).count == 1)
        }
    }

    @Test(
        "GET and list never write: a provider without a key (configured before keys existed) is answered without one, and the next start makes it",
        arguments: StoreEngine.all)
    func readsNeverWrite(_ engine: StoreEngine) async throws {
        let location = try await engine.freshLocation()
        try await engine.withNodeAndStore(location, key: nil) { api, store, _ in
            try await api.configureSAML()
            try await api.configureSAML("saml.b")
            let made = try await Self.rows(store)
            #expect(made.count == 2 && made.allSatisfy { $0.activatedAt == $0.createdAt }, "made with the providers, signing")
            // As a provider configured before migration 28 is: no key.
            let corp = try #require(made.first { $0.providerID == "saml.corp" })
            try await store.write { try await $0.deleteSAMLSPKey(corp) }
            let before = try await Self.rows(store)
            let events = try await store.read { try await $0.auditEvents(AuditQuery()) }.count
            #expect(try await Self.certificates(api).isEmpty, "no key, no certificate")
            #expect(try await Self.certificates(api, "\(Path.samlIdps)/saml.b").count == 1)
            let listed = try await api.admin(.get, "\(Path.samlIdps)?pageSize=10")["inboundSamlConfigs"]?.arrayValue ?? []
            #expect(listed.map { ($0["spConfig"]?["spCertificates"]?.arrayValue ?? []).count } == [1, 0])
            #expect(try await Self.rows(store) == before, "no key made, none changed")
            #expect(try await store.read { try await $0.auditEvents(AuditQuery()) }.count == events)
        }
        try await engine.withNodeAndStore(location, key: nil) { api, store, _ in
            #expect(try await Self.certificates(api).count == 1, "the start made the missing key")
            let after = try await Self.rows(store)
            #expect(after.count == 2 && after.allSatisfy { $0.activatedAt != nil })
        }
        try await engine.withNodeAndStore(location, key: nil) { _, store, _ in
            let rows = try await Self.rows(store)
            #expect(rows.count == 2, "a later start makes none")
        }
    }

    @Test("deleting a SAML provider, the project's or a tenant's, or a tenant deletes their SP keys with them", arguments: StoreEngine.all)
    func deletedWithTheirProvider(_ engine: StoreEngine) async throws {
        try await engine.withNodeAndStore(try await engine.freshLocation(), key: nil) { api, store, _ in
            try await api.configureSAML()
            try await api.configureSAML("saml.b")
            let tenant = try await TenantTests.create(api, #"{"displayName":"Acme"}"#)
            let base = "\(TenantIdpConfigTests.tenants)/\(tenant)/inboundSamlConfigs"
            for id in ["saml.corp", "saml.t"] {
                let reply = try await api.admin(.post, "\(base)?inboundSamlConfigId=\(id)", body: SAMLFixture.body())
                #expect(reply.status == .ok, "\(reply.text)")
            }
            func held() async throws -> [String] { try await Self.rows(store).map { "\($0.tenant.rawValue)/\($0.providerID)" } }
            #expect(try await held() == ["/saml.b", "/saml.corp", "\(tenant)/saml.corp", "\(tenant)/saml.t"])
            #expect(try await api.admin(.delete, "\(Path.samlIdps)/saml.corp").status == .ok)
            #expect(try await held() == ["/saml.b", "\(tenant)/saml.corp", "\(tenant)/saml.t"])
            #expect(try await api.admin(.delete, "\(base)/saml.t").status == .ok)
            #expect(try await held() == ["/saml.b", "\(tenant)/saml.corp"])
            #expect(try await api.admin(.delete, "\(TenantIdpConfigTests.tenants)/\(tenant)").status == .ok)
            #expect(try await held() == ["/saml.b"])
        }
    }
}
