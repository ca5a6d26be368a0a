import FlintCore
import FlintStore
import FlintTesting
import Testing

@Suite("Credential storage: service-account keys, admin credentials, session claims")
struct CredentialsStoreTests {
    static func account(_ key: String, _ name: String, at: Instant = 1) -> ServiceAccountRecord {
        ServiceAccountRecord(
            keyID: key, name: name, clientEmail: "\(name)@demo.iam.gserviceaccount.com", clientID: "1", publicKeyPEM: "pem-\(key)", createdAt: at)
    }

    @Test("service accounts: one unrevoked per name, found by client email with their revoked keys", arguments: Engine.all)
    func serviceAccounts(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        try await store.write { tx in
            try await tx.insertServiceAccount(Self.account("k1", "backend", at: 1))
            try await tx.insertServiceAccount(Self.account("k2", "other", at: 2))
        }
        await #expect(throws: StoreError.conflict(.credentialName)) {
            try await store.write { try await $0.insertServiceAccount(Self.account("k3", "backend")) }
        }
        await #expect(throws: StoreError.conflict(.keyID)) {
            try await store.write { try await $0.insertServiceAccount(Self.account("k1", "third")) }
        }
        #expect(try await store.write { try await $0.revokeServiceAccount(name: "backend", at: 5) })
        #expect(try await store.write { try await $0.revokeServiceAccount(name: "backend", at: 6) } == false)
        try await store.write { try await $0.insertServiceAccount(Self.account("k3", "backend", at: 7)) }
        let keys = try await store.read { try await $0.serviceAccounts(clientEmail: "backend@demo.iam.gserviceaccount.com") }
        #expect(keys.map(\.keyID) == ["k1", "k3"])
        #expect(keys.map(\.revokedAt) == [5, nil])
        #expect(try await store.read { try await $0.serviceAccounts() }.map(\.keyID) == ["k1", "k2", "k3"])
        #expect(try await store.read { try await $0.serviceAccounts(clientEmail: "nobody@demo.iam.gserviceaccount.com") }.isEmpty)
        try await store.close()
    }

    @Test("admin credentials: found by secret hash, one unrevoked per name, revocable", arguments: Engine.all)
    func adminCredentials(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        let ci = AdminCredentialRecord(secretHash: "h1", name: "ci", scope: .read, createdAt: 1)
        try await store.write { try await $0.insertAdminCredential(ci) }
        await #expect(throws: StoreError.conflict(.credentialName)) {
            try await store.write {
                try await $0.insertAdminCredential(AdminCredentialRecord(secretHash: "h2", name: "ci", scope: .write, createdAt: 2))
            }
        }
        #expect(try await store.read { try await $0.adminCredential(secretHash: "h1") } == ci)
        #expect(try await store.read { try await $0.adminCredential(secretHash: "nope") } == nil)
        #expect(try await store.write { try await $0.revokeAdminCredential(name: "ci", at: 9) })
        #expect(try await store.read { try await $0.adminCredential(secretHash: "h1") }?.revokedAt == 9)
        try await store.write {
            try await $0.insertAdminCredential(AdminCredentialRecord(secretHash: "h2", name: "ci", scope: .write, createdAt: 10))
        }
        #expect(try await store.read { try await $0.adminCredentials() }.map(\.secretHash) == ["h1", "h2"])
        try await store.close()
    }

    @Test("an admin credential's tenant limit (migration 31) is stored sorted, changed and lifted; a revoked one's is kept", arguments: Engine.all)
    func adminCredentialTenants(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        let (acme, globex) = (TenantID(rawValue: "acme-x7k2q"), TenantID(rawValue: "globex-4n8pz"))
        let limited = AdminCredentialRecord(secretHash: "h1", name: "acme", scope: .write, createdAt: 1, tenants: [globex, acme, globex])
        try await store.write { try await $0.insertAdminCredential(limited) }
        let read = try #require(try await store.read { try await $0.adminCredential(secretHash: "h1") })
        #expect(read.tenants == [acme, globex] && read.mayUse(acme) && !read.mayUse(.default))
        let changed = try await store.write { try await $0.setAdminCredentialTenants(name: "acme", tenants: [acme, .default]) }
        #expect(changed?.tenants == [.default, acme] && changed?.mayUse(.default) == true && changed?.mayUse(globex) == false)
        #expect(try await store.read { try await $0.adminCredential(secretHash: "h1") }?.tenants == [.default, acme])
        #expect(try await store.write { try await $0.setAdminCredentialTenants(name: "acme", tenants: nil) }?.tenants == nil)
        #expect(try await store.read { try await $0.adminCredentials() }.first?.mayUse(globex) == true)
        #expect(try await store.write { try await $0.setAdminCredentialTenants(name: "nobody", tenants: [acme]) } == nil)
        _ = try await store.write { try await $0.revokeAdminCredential(name: "acme", at: 2) }
        #expect(try await store.write { try await $0.setAdminCredentialTenants(name: "acme", tenants: [acme]) } == nil, "revoked: unchanged")
        try await store.close()
    }

    @Test("a refresh token keeps its session's developer claims", arguments: Engine.all)
    func developerClaims(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        let token = RefreshTokenRecord(
            tokenHash: "t", localID: "u", createdAt: 1, authTime: Instant(secondsSince1970: 1), signInProvider: "custom",
            developerClaims: #"{"premium":true}"#)
        try await store.write { try await $0.insertRefreshToken(token) }
        #expect(try await store.read { try await $0.refreshToken(hash: "t") } == token)
        try await store.close()
    }
}
