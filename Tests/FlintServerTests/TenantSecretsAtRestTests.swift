import FlintCore
import FlintServerTestSupport
import FlintStore
import FlintTesting
import Foundation
import HTTPTypes
import Synchronization
import Testing

@testable import FlintServer

/// A tenant's provider secrets are sealed in the tenant's stored document as the project's are in its config.
@Suite("tenants' provider secrets at rest", .serialized)
struct TenantSecretsAtRestTests {
    static let clientSecret = "tenant-oidc-client-secret"
    static let googleSecret = "tenant-google-client-secret"

    /// The tenant's stored document.
    private func stored(_ engine: StoreEngine, _ location: String, tenant: String) async throws -> String {
        let store = try await engine.open(location)
        let text = try await store.read { try await $0.tenant(id: tenant) }?.document ?? ""
        try await store.close()
        return text
    }

    /// The tenant's OIDC provider as the admin API answers it.
    private static func expectAnsweredInClear(_ api: API, tenant: String) async throws {
        let oidc = try await api.admin(.get, "\(TenantIdpConfigTests.tenants)/\(tenant)/oauthIdpConfigs/oidc.corp")
        #expect(oidc.string("clientSecret") == clientSecret, "\(oidc.text)")
    }

    @Test(
        "a secret kept in clear is read, sealed at the next start with a key and by the tenant's writes; rewrap seals it again",
        arguments: StoreEngine.all)
    func sealed(_ engine: StoreEngine) async throws {
        let location = try await engine.freshLocation()
        let tenant = Mutex("")
        try await engine.withNode(location, key: nil) { api in
            let id = try await TenantTests.create(api, #"{"displayName":"Acme"}"#)
            tenant.withLock { $0 = id }
            let created = try await api.admin(
                .post, "\(TenantIdpConfigTests.tenants)/\(id)/oauthIdpConfigs?oauthIdpConfigId=oidc.corp",
                body: #"{"enabled":true,"clientId":"c1","clientSecret":"\#(Self.clientSecret)","issuer":"https://id.corp.example"}"#)
            #expect(created.status == .ok, "\(created.text)")
        }
        let id = tenant.withLock { $0 }
        #expect(try await stored(engine, location, tenant: id).contains(Self.clientSecret), "without a key, kept in clear")

        let key = MasterKey.generate()
        try await engine.withNode(location, key: key) { api in
            try await Self.expectAnsweredInClear(api, tenant: id)
            // A write of the tenant under the key seals what it adds as well.
            let google = try await api.admin(
                .post, "\(TenantIdpConfigTests.tenants)/\(id)/defaultSupportedIdpConfigs?idpId=google.com",
                body: #"{"enabled":true,"clientId":"g1","clientSecret":"\#(Self.googleSecret)"}"#)
            #expect(google.status == .ok && google.string("clientSecret") == Self.googleSecret, "\(google.text)")
            let renamed = try await api.admin(
                .patch, "\(TenantIdpConfigTests.tenants)/\(id)?updateMask=displayName", body: #"{"displayName":"Acme2"}"#)
            #expect(renamed.status == .ok, "\(renamed.text)")
            try await Self.expectAnsweredInClear(api, tenant: id)
        }
        let sealed = try await stored(engine, location, tenant: id)
        #expect(!sealed.contains(Self.clientSecret) && !sealed.contains(Self.googleSecret), "\(sealed)")
        #expect(sealed.contains("sealed:v1:\(key.id):"))

        let other = MasterKey.generate()
        let store = try await engine.open(location)
        // Server secret, signing key, the tenant's two provider secrets.
        #expect(try await SecretsAtRest(masterKey: key).rewrap(store: store, to: other) == 4)
        try await store.close()
        #expect(try await stored(engine, location, tenant: id).contains("sealed:v1:\(other.id):"))
        try await engine.withNode(location, key: other) { api in try await Self.expectAnsweredInClear(api, tenant: id) }
    }

    @Test("a tenant's envelope is bound to its tenant: the same provider's sealed secret does not open in another tenant")
    func boundToItsTenant() throws {
        let secrets = SecretsAtRest(masterKey: MasterKey.generate())
        let document: [String: JSONValue] = ["oauthIdpConfigs": ["oidc.a": ["clientSecret": "a-secret"]]]
        let sealed = try secrets.sealConfigSecrets(document, owner: SecretsAtRest.tenantOwner("acme-abcde"))
        #expect(sealed != document)
        #expect(try secrets.openConfigSecrets(sealed, owner: SecretsAtRest.tenantOwner("acme-abcde")) == document)
        #expect(throws: MasterKeyError.self) { try secrets.openConfigSecrets(sealed, owner: SecretsAtRest.tenantOwner("other-abcde")) }
        #expect(throws: MasterKeyError.self) { try secrets.openConfigSecrets(sealed) }
    }
}
