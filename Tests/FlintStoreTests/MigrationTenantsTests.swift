import FlintCore
import FlintTesting
import Testing

@testable import FlintStore

@Suite("Migration 21: today's users in the default tenant")
struct MigrationTenantsTests {
    /// Accounts and everything keyed by them, as a database at version 20 holds them.
    static let rows: [(String, [SQLValue])] = [
        (
            "INSERT INTO users (local_id, phone_number, email, display_name, created_at, valid_since) VALUES (?, ?, ?, ?, ?, ?)",
            [.text("u1"), .text("+16505550101"), .text("ann@example.com"), .text("Ann"), .integer(1_000), .integer(1)]
        ),
        (
            "INSERT INTO users (local_id, email, created_at, valid_since) VALUES (?, ?, ?, ?)",
            [.text("u2"), .text("bob@example.com"), .integer(2_000), .integer(1)]
        ),
        (
            "INSERT INTO federated_identities (provider_id, raw_id, local_id, email) VALUES (?, ?, ?, ?)",
            [.text("google.com"), .text("g-1"), .text("u1"), .text("ann@example.com")]
        ),
        (
            """
            INSERT INTO passkeys (credential_id, local_id, public_key, rp_id, sign_count, transports, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """,
            [.text("cred-1"), .text("u1"), .text("pk"), .text("example.com"), .integer(3), .text("internal"), .integer(1_500)]
        ),
        (
            "INSERT INTO mfa_enrollments (enrollment_id, local_id, factor, phone_number, enrolled_at) VALUES (?, ?, ?, ?, ?)",
            [.text("mfa-1"), .text("u1"), .text("phone"), .text("+16505550102"), .integer(1_600)]
        ),
        ("INSERT INTO mfa_recovery_codes (code_hash, local_id, created_at) VALUES (?, ?, ?)", [.text("rc-1"), .text("u1"), .integer(1_600)]),
        (
            "INSERT INTO refresh_tokens (token_hash, local_id, created_at, auth_time, sign_in_provider) VALUES (?, ?, ?, ?, ?)",
            [.text("rt-1"), .text("u1"), .integer(1_700_000), .integer(1_700), .text("password")]
        ),
        (
            "INSERT INTO oob_codes (code_hash, request_type, email, local_id, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)",
            [.text("oob-1"), .text("PASSWORD_RESET"), .text("ann@example.com"), .text("u1"), .integer(1), .integer(9_999_999_999)]
        ),
        (
            """
            INSERT INTO code_sessions (id, live_key, phone_number, purpose, code_hash, created_at, expires_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """,
            [.text("cs-1"), .text("signIn:+16505550101"), .text("+16505550101"), .text("signIn"), .text("h"), .integer(1), .integer(9_999_999_999)]
        ),
    ]

    @Test(
        "a database at version 20 keeps its users, identities, passkeys, factors, tokens and codes, all in the default tenant", arguments: Engine.all)
    func existingRowsLandInTheDefaultTenant(engine: Engine) async throws {
        let location = try await MigrationTests.database(engine, through: 20, Self.rows)
        let (store, _) = try await makeStore(engine, location: location)
        let found = try await store.read { tx in
            [
                try await tx.user(tenant: .default, email: "ann@example.com"), try await tx.user(tenant: .default, phoneNumber: "+16505550101"),
                try await tx.user(tenant: .default, localID: "u1"),
                try await tx.user(tenant: .default, federatedID: FederatedIdentityKey(providerID: "google.com", rawID: "g-1")),
            ]
        }
        #expect(found.map { $0?.displayName } == ["Ann", "Ann", "Ann", "Ann"] && found.allSatisfy { $0?.tenant == .default })
        #expect(try await store.read { try await $0.users(tenant: .default, after: nil, limit: 10) }.map(\.localID) == ["u1", "u2"])
        let passkey = try await store.read { try await $0.passkey(tenant: .default, credentialID: "cred-1") }
        #expect(passkey?.localID == "u1" && passkey?.signCount == 3 && passkey?.transports == ["internal"])
        #expect(try await store.read { try await $0.mfaEnrollments(tenant: .default, localID: "u1") }.map(\.enrollmentID) == ["mfa-1"])
        #expect(try await store.read { try await $0.recoveryCodesLeft(tenant: .default, localID: "u1") } == 1)
        let session = try await store.read { try await $0.refreshSession(hash: "rt-1") }
        #expect(session?.token.tenant == .default && session?.user?.displayName == "Ann" && session?.hasIdentities == true)
        #expect(try await store.read { try await $0.oobCode(hash: "oob-1") }?.tenant == .default)
        // The live session keeps its key: a send to the same number and purpose finds it.
        let reused = try await store.write { tx in
            try await tx.startCodeSession(
                CodeSession(id: "cs-2", phoneNumber: "+16505550101", purpose: .signIn, codeHash: "h2", createdAt: 2, expiresAt: 9_999_999),
                maxAttempts: 5)
        }
        #expect(reused.reused && reused.session.id == "cs-1")
        // Uniqueness is within a tenant now: another tenant may hold the same email and number.
        let tenant = TenantID(rawValue: "acme-a1b2c")
        var other = UserRecord(tenant: tenant, localID: "u1", phoneNumber: "+16505550101", createdAt: 3_000, validSince: Instant(secondsSince1970: 1))
        other.email = "ann@example.com"
        try await store.write { [other] in try await $0.insertUser(other) }
        var taken = UserRecord(localID: "u3", createdAt: 3_000, validSince: Instant(secondsSince1970: 1))
        taken.email = "ann@example.com"
        await #expect(throws: StoreError.conflict(.email)) { try await store.write { [taken] in try await $0.insertUser(taken) } }
        try await store.close()
    }
}
