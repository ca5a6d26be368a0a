import FlintCore
import FlintTesting
import Foundation
import Testing

@testable import FlintStore

/// Tenants' users (docs/design/tenants.md): the same email, number, federated identity and passkey credential in two
/// tenants and the default one are three accounts, and no read by one tenant reaches another's. The feature's security
/// property, on both engines.
@Suite("Tenant isolation in the store")
struct TenantIsolationStoreTests {
    static let tenantA = TenantID(rawValue: "acme-a1b2c")
    static let tenantB = TenantID(rawValue: "beta-d3e4f")
    static let all: [TenantID] = [.default, tenantA, tenantB]
    static let email = "ann@example.com"
    static let phone = "+16505550101"
    static let google = FederatedIdentityKey(providerID: "google.com", rawID: "g-1")

    /// A name that tells the tenants' accounts apart.
    static func name(_ tenant: TenantID) -> String { tenant.isDefault ? "default" : tenant.rawValue }

    /// The same account (ID, email, number, Google identity, passkey) in `tenant`, with a second factor, a recovery
    /// code and a refresh token of its own.
    static func seed(_ tx: any StoreTransaction, _ tenant: TenantID) async throws {
        var user = UserRecord(tenant: tenant, localID: "u1", phoneNumber: phone, createdAt: 1_000, validSince: Instant(secondsSince1970: 1))
        user.email = email
        user.displayName = name(tenant)
        try await tx.insertUser(user)
        try await tx.linkFederatedIdentity(
            FederatedIdentityRecord(tenant: tenant, localID: "u1", providerID: google.providerID, rawID: google.rawID, email: email))
        try await tx.insertPasskey(
            PasskeyRecord(
                tenant: tenant, credentialID: "cred-1", localID: "u1", publicKey: "pk-\(name(tenant))", rpID: "example.com", signCount: 0,
                name: nil, transports: [], createdAt: 2_000))
        try await tx.insertMFAEnrollment(
            MFAEnrollmentRecord(
                tenant: tenant, enrollmentID: "mfa-\(name(tenant))", localID: "u1", factor: .phone, displayName: nil, phoneNumber: phone,
                enrolledAt: 3_000))
        try await tx.replaceRecoveryCodes(tenant: tenant, localID: "u1", hashes: ["rc-\(name(tenant))"], now: 3_000)
        try await tx.insertRefreshToken(
            RefreshTokenRecord(
                tenant: tenant, tokenHash: "rt-\(name(tenant))", localID: "u1", createdAt: 4_000, authTime: 4_000, signInProvider: "password"))
    }

    static func makeSeededStore(_ engine: Engine) async throws -> any AuthStore {
        let (store, _) = try await makeStore(engine)
        try await store.write { tx in
            for tenant in [tenantA, tenantB] {
                #expect(try await tx.insertTenant(TenantRecord(id: tenant.rawValue, document: "{}", createdAt: 1)))
            }
            for tenant in all { try await seed(tx, tenant) }
            var second = UserRecord(tenant: tenantA, localID: "u2", createdAt: 5_000, validSince: Instant(secondsSince1970: 1))
            second.email = "bob@example.com"
            try await tx.insertUser(second)
        }
        return store
    }

    @Test(
        "the same email, number, identity and passkey in tenants A, B and the default one are three accounts, each read only by its tenant",
        arguments: Engine.all)
    func readsStayInTheirTenant(engine: Engine) async throws {
        let store = try await Self.makeSeededStore(engine)
        for tenant in Self.all {
            let name = Self.name(tenant)
            let found = try await store.read { tx in
                [
                    try await tx.user(tenant: tenant, email: Self.email), try await tx.user(tenant: tenant, phoneNumber: Self.phone),
                    try await tx.user(tenant: tenant, localID: "u1"), try await tx.user(tenant: tenant, federatedID: Self.google),
                ]
            }
            #expect(found.map { $0?.displayName } == Array(repeating: name, count: 4), "\(name)")
            #expect(found.allSatisfy { $0?.tenant == tenant })
            let locked = try await store.write { tx in
                [
                    try await tx.lockedUser(tenant: tenant, localID: "u1"), try await tx.lockedUser(tenant: tenant, email: Self.email),
                    try await tx.lockedUser(tenant: tenant, phoneNumber: Self.phone),
                ]
            }
            #expect(locked.map { $0?.displayName } == [name, name, name])
            let withIdentities = try await store.read { try await $0.userWithIdentities(tenant: tenant, phoneNumber: Self.phone) }
            #expect(withIdentities?.user.displayName == name && withIdentities?.identities.map(\.tenant) == [tenant])
            let passkey = try await store.read { try await $0.passkey(tenant: tenant, credentialID: "cred-1") }
            #expect(passkey?.publicKey == "pk-\(name)" && passkey?.tenant == tenant)
            #expect(try await store.read { try await $0.mfaEnrollments(tenant: tenant, localID: "u1") }.map(\.enrollmentID) == ["mfa-\(name)"])
            #expect(try await store.read { try await $0.federatedIdentities(tenant: tenant, email: Self.email) }.count == 1)
            #expect(try await store.read { try await $0.recoveryCodesLeft(tenant: tenant, localID: "u1") } == 1)
            #expect(try await store.write { try await $0.useRecoveryCode(tenant: tenant, localID: "u1", hash: "rc-other", now: 5) } == false)
            // A refresh token answers its own tenant, and reaches only that tenant's account.
            let session = try await store.read { try await $0.refreshSession(hash: "rt-\(name)") }
            #expect(session?.token.tenant == tenant && session?.user?.displayName == name && session?.hasIdentities == true)
        }
        // No key of one tenant finds anything in a tenant that lacks it.
        #expect(try await store.read { try await $0.user(tenant: Self.tenantB, email: "bob@example.com") } == nil)
        #expect(try await store.read { try await $0.user(tenant: .default, localID: "u2") } == nil)
        let wrongTenant = TenantID(rawValue: "gone-00000")
        #expect(try await store.read { try await $0.user(tenant: wrongTenant, federatedID: Self.google) } == nil)
        #expect(try await store.read { try await $0.passkey(tenant: wrongTenant, credentialID: "cred-1") } == nil)
        try await store.close()
    }

    @Test("writes by one tenant leave the others' accounts alone; listings list only the tenant's users", arguments: Engine.all)
    func writesAndListingsStayInTheirTenant(engine: Engine) async throws {
        let store = try await Self.makeSeededStore(engine)
        #expect(try await store.read { try await $0.users(tenant: Self.tenantA, after: nil, limit: 10) }.map(\.localID) == ["u1", "u2"])
        #expect(try await store.read { try await $0.users(tenant: Self.tenantB, after: nil, limit: 10) }.map(\.displayName) == ["beta-d3e4f"])
        #expect(try await store.read { try await $0.userCount(tenant: Self.tenantA) } == 2)
        #expect(try await store.read { try await $0.userCount(tenant: .default, matching: .email(Self.email)) } == 1)
        let page = try await store.read { try await $0.consoleUsers(tenant: Self.tenantA, ConsoleUserListing(order: .created, limit: 10)) }
        #expect(page.users.map(\.localID) == ["u1", "u2"] && page.users.allSatisfy { $0.tenant == Self.tenantA })
        let found = try await store.read { try await $0.consoleUsers(tenant: Self.tenantB, idPrefix: "u", namePrefix: nil, after: nil, limit: 10) }
        #expect(found.map(\.displayName) == ["beta-d3e4f"])
        let exported = try await store.read { try await $0.exportPage(tenant: Self.tenantB, after: nil, limit: 10) }
        #expect(exported.map(\.user.displayName) == ["beta-d3e4f"])
        #expect(exported.first?.enrollments.map(\.enrollmentID) == ["mfa-beta-d3e4f"] && exported.first?.passkeys.map(\.tenant) == [Self.tenantB])
        let clashes = try await store.read {
            try await $0.importClashes(
                tenant: Self.tenantB, localIDs: ["u2"], emails: ["bob@example.com", Self.email], phoneNumbers: [], enrollmentIDs: [],
                identities: [Self.google])
        }
        #expect(clashes.generations.isEmpty && clashes.emailOwners == [Self.email: "u1"] && clashes.identityOwners == [Self.google: "u1"])
        // Deleting, revoking and unlinking in tenant B touch only B's rows.
        let removed = try await store.write { tx in
            (
                try await tx.deleteRefreshTokens(tenant: Self.tenantB, localID: "u1", createdBefore: nil),
                try await tx.unlinkFederatedIdentities(tenant: Self.tenantB, localID: "u1", providerIDs: ["google.com"]),
                try await tx.deletePasskeys(tenant: Self.tenantB, localID: "u1", credentialIDs: ["cred-1"]),
                try await tx.deleteUser(tenant: Self.tenantB, localID: "u1")
            )
        }
        #expect(removed.0 == 1 && removed.1 == 1 && removed.2 == ["cred-1"] && removed.3)
        for tenant in [TenantID.default, Self.tenantA] {
            #expect(try await store.read { try await $0.refreshSession(hash: "rt-\(Self.name(tenant))") }?.user?.tenant == tenant)
            #expect(try await store.read { try await $0.user(tenant: tenant, federatedID: Self.google) }?.tenant == tenant)
            #expect(try await store.read { try await $0.passkey(tenant: tenant, credentialID: "cred-1") } != nil)
        }
        #expect(try await store.read { try await $0.user(tenant: Self.tenantB, email: Self.email) } == nil)
        try await store.close()
    }

    @Test("deleting tenant A deletes its users and everything keyed by them, and nothing of B's or the default tenant's", arguments: Engine.all)
    func deletingATenantDeletesOnlyItsUsers(engine: Engine) async throws {
        let store = try await Self.makeSeededStore(engine)
        try await store.write { tx in
            for tenant in Self.all {
                _ = try await tx.startCodeSession(
                    CodeSession(
                        tenant: tenant, id: "cs-\(Self.name(tenant))", phoneNumber: Self.phone, purpose: .signIn, codeHash: "h", createdAt: 1,
                        expiresAt: 9_999_999), maxAttempts: 5)
                try await tx.insertOobCode(
                    OobCodeRecord(
                        tenant: tenant, codeHash: "oob-\(Self.name(tenant))", requestType: .passwordReset, email: Self.email, localID: "u1",
                        createdAt: 1, expiresAt: 9_999_999))
            }
        }
        #expect(try await store.write { try await $0.deleteTenant(id: Self.tenantA.rawValue) } == 2)
        #expect(try await store.read { try await $0.users(tenant: Self.tenantA, after: nil, limit: 10) }.isEmpty)
        #expect(try await store.read { try await $0.refreshSession(hash: "rt-acme-a1b2c") } == nil)
        #expect(try await store.read { try await $0.oobCode(hash: "oob-acme-a1b2c") } == nil)
        #expect(try await store.read { try await $0.codeSession(id: "cs-acme-a1b2c") } == nil)
        #expect(try await store.read { try await $0.passkey(tenant: Self.tenantA, credentialID: "cred-1") } == nil)
        #expect(try await store.read { try await $0.mfaEnrollments(tenant: Self.tenantA, localID: "u1") }.isEmpty)
        #expect(try await store.read { try await $0.recoveryCodesLeft(tenant: Self.tenantA, localID: "u1") } == 0)
        for tenant in [TenantID.default, Self.tenantB] {
            let name = Self.name(tenant)
            #expect(try await store.read { try await $0.user(tenant: tenant, email: Self.email) }?.displayName == name)
            #expect(try await store.read { try await $0.refreshSession(hash: "rt-\(name)") }?.token.tenant == tenant)
            #expect(try await store.read { try await $0.oobCode(hash: "oob-\(name)") }?.tenant == tenant)
            #expect(try await store.read { try await $0.codeSession(id: "cs-\(name)") }?.tenant == tenant)
            #expect(try await store.read { try await $0.mfaEnrollments(tenant: tenant, localID: "u1") }.count == 1)
        }
        try await store.close()
    }

    @Test("a number's code session is live per tenant: the same number and purpose in two tenants are two sessions", arguments: Engine.all)
    func codeSessionsPerTenant(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        let started = try await store.write { tx in
            var reused: [Bool] = []
            for (index, tenant) in [TenantID.default, Self.tenantA, .default].enumerated() {
                reused.append(
                    try await tx.startCodeSession(
                        CodeSession(
                            tenant: tenant, id: "s\(index)", phoneNumber: Self.phone, purpose: .signIn, codeHash: "h", createdAt: 1,
                            expiresAt: 9_999_999),
                        maxAttempts: 5
                    ).reused)
            }
            return reused
        }
        #expect(started == [false, false, true], "tenant A's send does not take the default tenant's live session")
        try await store.close()
    }

    @Test("counters naming a user's email or number carry a tenant other than the default one; the default's keys are today's")
    func countersCarryTheTenant() {
        #expect(CounterKey.passwordFailures(tenant: .default, email: Self.email).rawValue == "pwfail:email:ann@example.com")
        #expect(CounterKey.passwordFailures(tenant: Self.tenantA, email: Self.email).rawValue == "t:acme-a1b2c:pwfail:email:ann@example.com")
        #expect(CounterKey.oobEmails(tenant: Self.tenantA, to: Self.email).rawValue == "t:acme-a1b2c:oob:email:ann@example.com")
        let counter = NumberCounter(tenant: Self.tenantA, .sends(per: .hour), windowStart: 0)
        #expect(counter.key(for: Self.phone).rawValue == "t:acme-a1b2c:sms-sent:h:+16505550101")
        #expect(counter.prefix + Self.phone == counter.key(for: Self.phone).rawValue, "the key PostgreSQL's spend writes in SQL")
    }

    @Test("SQLite answers each sign-in lookup, and the dev listing of a number's codes, with index probes led by the tenant, never a scan")
    func signInLookupsAreIndexProbes() async throws {
        let location = try await MigrationTests.database(.sqlite, through: Migrations.latest, [])
        let db = try SQLiteDatabase(path: location)
        defer { db.close() }
        let expected: [(String, [String])] = [
            (UserRows.lookup(by: "email"), ["USING INDEX users_email (tenant_id=? AND email=?)"]),
            (UserRows.lookup(by: "phone_number"), ["USING INDEX users_phone_number (tenant_id=? AND phone_number=?)"]),
            (UserRows.lookup(by: "local_id"), ["USING INDEX sqlite_autoindex_users_1 (tenant_id=? AND local_id=?)"]),
            (
                IdentityRows.userByFederatedID,
                [
                    "USING INDEX sqlite_autoindex_users_1 (tenant_id=? AND local_id=?)",
                    "USING INDEX sqlite_autoindex_federated_identities_1 (tenant_id=? AND provider_id=? AND raw_id=?)",
                ]
            ),
            (
                RefreshTokenRows.sessionSQL,
                [
                    "USING INDEX sqlite_autoindex_refresh_tokens_1 (token_hash=?)",
                    "USING INDEX sqlite_autoindex_users_1 (tenant_id=? AND local_id=?)",
                    "USING COVERING INDEX federated_identities_local_id (tenant_id=? AND local_id=?)",
                ]
            ),
            (CodeSessionRows.pending(columns: "o.seq", byNumber: true), ["(tenant_id=? AND phone_number=?)"]),
            // A session's token by one seek in the account's index (migration 34), not a walk of the account's sessions.
            (
                "SELECT 1 FROM refresh_tokens WHERE \(RefreshTokenRows.sessionMatch)",
                ["USING COVERING INDEX refresh_tokens_local_id (tenant_id=? AND local_id=? AND token_hash>? AND token_hash<?)"]
            ),
        ]
        for (sql, probes) in expected {
            let detail = try await MigrationTests.queryPlan(sql, on: db)
            #expect(!detail.contains("SCAN"), "\(detail)")
            for probe in probes { #expect(detail.contains(probe), "\(detail)") }
        }
    }
}
