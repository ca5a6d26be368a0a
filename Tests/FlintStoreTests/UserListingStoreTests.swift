import FlintCore
import FlintStore
import FlintTesting
import Testing

@Suite("Operator listings: keyset pages, queries, batch deletes, second factors, sign-in stamps")
struct UserListingStoreTests {
    /// Seven accounts `u0`…`u6`, created one second apart; `u2` and `u5` have no display name.
    private func seed(_ store: any AuthStore) async throws {
        try await store.write { tx in
            for i in 0..<7 {
                var user = UserRecord(
                    localID: "u\(i)", phoneNumber: "+1650555100\(i)", createdAt: Instant(millisecondsSince1970: 1_000 + Int64(i) * 1_000),
                    validSince: Instant(secondsSince1970: 1))
                user.email = "user\(i)@example.com"
                user.displayName = [2, 5].contains(i) ? nil : "name\(6 - i)"
                try await tx.insertUser(user)
            }
        }
    }

    @Test("pages follow the local ID, each after the last ID of the one before", arguments: Engine.all)
    func keysetPages(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        try await seed(store)
        let first = try await store.read { try await $0.users(tenant: .default, after: nil, limit: 3) }
        #expect(first.map(\.localID) == ["u0", "u1", "u2"])
        let second = try await store.read { try await $0.users(tenant: .default, after: "u2", limit: 3) }
        #expect(second.map(\.localID) == ["u3", "u4", "u5"])
        let last = try await store.read { try await $0.users(tenant: .default, after: "u5", limit: 3) }
        #expect(last.map(\.localID) == ["u6"])
        #expect(try await store.read { try await $0.users(tenant: .default, after: "u6", limit: 3) }.isEmpty)
        #expect(first.first?.email == "user0@example.com")
        try await store.close()
    }

    @Test("batch reads return the accounts that exist, and second factors by account", arguments: Engine.all)
    func batchReads(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        try await seed(store)
        try await store.write { tx in
            try await tx.insertMFAEnrollment(
                MFAEnrollmentRecord(enrollmentID: "e2", localID: "u1", factor: .phone, displayName: nil, phoneNumber: "+16505550002", enrolledAt: 20))
            try await tx.insertMFAEnrollment(
                MFAEnrollmentRecord(enrollmentID: "e1", localID: "u1", factor: .phone, displayName: nil, phoneNumber: "+16505550001", enrolledAt: 10))
        }
        let users = try await store.read { try await $0.users(tenant: .default, localIDs: ["u3", "nobody", "u1", "u3"]) }
        #expect(users.map(\.localID) == ["u1", "u3"])
        let factors = try await store.read { try await $0.mfaEnrollments(tenant: .default, localIDs: ["u1", "u3"]) }
        #expect(factors["u1"]?.map(\.enrollmentID) == ["e1", "e2"])
        #expect(factors["u3"] == nil)
        try await store.close()
    }

    @Test("queries filter on one identifier, sort with empty values last (first when descending), and window", arguments: Engine.all)
    func queries(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        try await seed(store)
        func ids(_ query: UserQuery) async throws -> [String] {
            try await store.read { try await $0.users(tenant: .default, matching: query) }.map(\.localID)
        }
        #expect(try await ids(UserQuery(sortBy: .createdAt, descending: true, offset: 1, limit: 2)) == ["u5", "u4"])
        #expect(try await ids(UserQuery(sortBy: .name, limit: 10)) == ["u6", "u4", "u3", "u1", "u0", "u2", "u5"])
        #expect(try await ids(UserQuery(sortBy: .name, descending: true, limit: 10)) == ["u5", "u2", "u0", "u1", "u3", "u4", "u6"])
        #expect(try await ids(UserQuery(filter: .email("user3@example.com"), limit: 10)) == ["u3"])
        #expect(try await ids(UserQuery(filter: .phoneNumber("+16505551004"), limit: 10)) == ["u4"])
        #expect(try await ids(UserQuery(filter: .localID("u6"), limit: 10)) == ["u6"])
        #expect(try await store.read { try await $0.userCount(tenant: .default, matching: nil) } == 7)
        #expect(try await store.read { try await $0.userCount(tenant: .default, matching: .email("nobody@example.com")) } == 0)
        try await store.close()
    }

    @Test("a batch delete takes the accounts with their sessions and factors, and reports which existed", arguments: Engine.all)
    func batchDelete(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        try await seed(store)
        try await store.write { tx in
            try await tx.insertRefreshToken(
                RefreshTokenRecord(tokenHash: "h1", localID: "u1", createdAt: 1, authTime: Instant(secondsSince1970: 1), signInProvider: "phone"))
            try await tx.insertMFAEnrollment(
                MFAEnrollmentRecord(enrollmentID: "e1", localID: "u1", factor: .phone, displayName: nil, phoneNumber: "+16505550001", enrolledAt: 1))
        }
        let gone = try await store.write { try await $0.deleteUsers(tenant: .default, localIDs: ["u1", "u2", "nobody"]) }
        #expect(gone == ["u1", "u2"])
        #expect(try await store.read { try await $0.refreshToken(hash: "h1") } == nil)
        #expect(try await store.read { try await $0.mfaEnrollments(tenant: .default, localID: "u1") }.isEmpty)
        #expect(try await store.read { try await $0.userCount(tenant: .default) } == 5)
        try await store.close()
    }

    @Test("replacing second factors swaps the whole set; a shared number is a conflict", arguments: Engine.all)
    func replaceFactors(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        try await seed(store)
        @Sendable func factor(_ id: String, _ phone: String) -> MFAEnrollmentRecord {
            MFAEnrollmentRecord(enrollmentID: id, localID: "u0", factor: .phone, displayName: nil, phoneNumber: phone, enrolledAt: 1)
        }
        try await store.write {
            try await $0.replaceMFAEnrollments(tenant: .default, localID: "u0", with: [factor("a", "+16505550001"), factor("b", "+16505550002")])
        }
        try await store.write { try await $0.replaceMFAEnrollments(tenant: .default, localID: "u0", with: [factor("c", "+16505550003")]) }
        #expect(try await store.read { try await $0.mfaEnrollments(tenant: .default, localID: "u0") }.map(\.enrollmentID) == ["c"])
        await #expect(throws: StoreError.conflict(.secondFactor)) {
            try await store.write {
                try await $0.replaceMFAEnrollments(tenant: .default, localID: "u0", with: [factor("d", "+16505550004"), factor("e", "+16505550004")])
            }
        }
        #expect(
            try await store.read { try await $0.mfaEnrollments(tenant: .default, localID: "u0") }.map(\.enrollmentID) == ["c"],
            "nothing of a failed replace")
        try await store.close()
    }

    @Test("a sign-in that mints tokens stamps lastLoginAt and lastRefreshAt and nothing else", arguments: Engine.all)
    func recordSession(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        try await seed(store)
        try await store.write { try await $0.recordSession(tenant: .default, localID: "u3", at: 42_000) }
        let user = try #require(try await store.read { try await $0.user(tenant: .default, localID: "u3") })
        #expect(user.lastLoginAt == 42_000)
        #expect(user.lastRefreshAt == 42_000)
        #expect(user.email == "user3@example.com")
        try await store.close()
    }
}
