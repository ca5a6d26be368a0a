import FlintCore
import FlintStore
import FlintTesting
import Foundation
import Testing

@Suite("Bulk import and export storage")
struct ImportStoreTests {
    /// An account with every column set, and a phone second factor when `factor` is given.
    static func account(_ n: Int, factor: String? = nil) -> UserAndFactors {
        var user = UserRecord(
            localID: String(format: "user-%05d", n), phoneNumber: "+1650555\(String(1000 + n))",
            createdAt: Instant(millisecondsSince1970: 1000 + Int64(n)), validSince: Instant(secondsSince1970: 7))
        user.email = "user\(n)@example.com"
        user.emailVerified = n % 2 == 0
        user.displayName = "User \(n)"
        user.photoURL = "https://example.com/\(n).png"
        user.disabled = n % 3 == 0
        user.lastLoginAt = Instant(millisecondsSince1970: 2000 + Int64(n))
        user.customAttributes = #"{"n":\#(n)}"#
        user.passwordHash = "sha256$rounds=1,order=salt-password$c2FsdA$aGFzaA"
        user.passwordUpdatedAt = 3000
        user.revocationGeneration = 2
        let enrollments = factor.map {
            [
                MFAEnrollmentRecord(
                    enrollmentID: $0, localID: user.localID, factor: .phone, displayName: "phone", phoneNumber: "+16505550101", enrolledAt: 5)
            ]
        }
        return UserAndFactors(user: user, enrollments: enrollments ?? [])
    }

    @Test("a batch is inserted whole, with its second factors, and read back unchanged page by page", arguments: Engine.all)
    func insertAndExport(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        // 203 accounts: full multi-row statements and a tail in powers of two (8, 2, 1 on SQLite).
        let accounts = (0..<203).map { Self.account($0, factor: $0 % 10 == 0 ? "factor-\($0)" : nil) }
        try await store.write { try await $0.insertImportedUsers(accounts) }
        #expect(try await store.read { try await $0.userCount(tenant: .default) } == 203)
        var exported: [UserAndFactors] = []
        var after: String?
        while true {
            let page = try await store.read { [after] in try await $0.exportPage(tenant: .default, after: after, limit: 50) }
            if page.isEmpty { break }
            exported += page
            after = page.last?.user.localID
        }
        #expect(exported == accounts)
        try await store.close()
    }

    @Test("clashes are found by ID, email, phone number and second-factor ID, across lookup chunks", arguments: Engine.all)
    func clashes(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        let accounts = (0..<300).map { Self.account($0, factor: $0 == 250 ? "factor-250" : nil) }
        try await store.write { try await $0.insertImportedUsers(accounts) }
        let ids = (0..<200).map { "absent-\($0)" } + ["user-00299"]
        let emails = (0..<150).map { "nobody\($0)@example.com" } + ["user5@example.com"]
        let phones = ["+16505551200"]
        let clashes = try await store.read { tx in
            try await tx.importClashes(
                tenant: .default, localIDs: ids, emails: emails, phoneNumbers: phones, enrollmentIDs: ["factor-250", "factor-x"])
        }
        #expect(clashes.generations == ["user-00299": 2])
        #expect(clashes.emailOwners == ["user5@example.com": "user-00005"])
        #expect(clashes.phoneOwners == ["+16505551200": "user-00200"])
        #expect(clashes.enrollmentOwners == ["factor-250": "user-00250"])
        try await store.close()
    }

    @Test("a clash found at insert undoes the whole batch", arguments: Engine.all)
    func conflictUndoes(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        try await store.write { try await $0.insertImportedUsers([Self.account(1)]) }
        var clashing = Self.account(2)
        clashing.user.email = "user1@example.com"
        let batch = [Self.account(3), clashing]
        await #expect(throws: StoreError.self) {
            try await store.write { try await $0.insertImportedUsers(batch) }
        }
        #expect(try await store.read { try await $0.userCount(tenant: .default) } == 1)
        try await store.close()
    }

    @Test("deleting imported accounts removes their tokens, second factors and recovery codes", arguments: Engine.all)
    func delete(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        try await store.write { tx in
            try await tx.insertImportedUsers([Self.account(1, factor: "f1"), Self.account(2, factor: "f2")])
            try await tx.insertRefreshToken(
                RefreshTokenRecord(
                    tokenHash: "h1", localID: "user-00001", createdAt: 1, authTime: Instant(secondsSince1970: 1), signInProvider: "password"))
            try await tx.replaceRecoveryCodes(tenant: .default, localID: "user-00001", hashes: ["r1"], now: 1)
        }
        _ = try await store.write { try await $0.deleteUsers(tenant: .default, localIDs: ["user-00001", "absent"]) }
        #expect(try await store.read { try await $0.user(tenant: .default, localID: "user-00001") } == nil)
        #expect(try await store.read { try await $0.refreshToken(hash: "h1") } == nil)
        #expect(try await store.read { try await $0.mfaEnrollments(tenant: .default, localID: "user-00001") }.isEmpty)
        #expect(try await store.read { try await $0.recoveryCodesLeft(tenant: .default, localID: "user-00001") } == 0)
        #expect(try await store.read { try await $0.mfaEnrollments(tenant: .default, localID: "user-00002") }.count == 1)
        try await store.close()
    }
}
