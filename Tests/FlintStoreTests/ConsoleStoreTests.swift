import FlintStore
import FlintTesting
import Testing

@Suite("Console storage: operators, their sessions, the users search")
struct ConsoleStoreTests {
    @Test("operators: one per email, found by setup token, updated in place", arguments: Engine.all)
    func operators(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        let added = ConsoleOperatorRecord(email: "ops@example.com", role: .read, setupTokenHash: "t1", setupExpiresAt: 99, createdAt: 1)
        try await store.write { try await $0.insertConsoleOperator(added) }
        await #expect(throws: StoreError.conflict("email")) {
            try await store.write { try await $0.insertConsoleOperator(ConsoleOperatorRecord(email: "ops@example.com", role: .admin, createdAt: 2)) }
        }
        #expect(try await store.read { try await $0.consoleOperator(setupTokenHash: "t1") } == added)
        #expect(try await store.read { try await $0.consoleOperator(email: "ops@example.com") }?.isSetUp == false)
        let done = ConsoleOperatorRecord(email: "ops@example.com", role: .read, passwordHash: "h", totpSecret: "s", lastTOTPStep: 7, createdAt: 1)
        try await store.write { try await $0.updateConsoleOperator(done) }
        #expect(try await store.read { try await $0.consoleOperator(email: "ops@example.com") } == done)
        #expect(try await store.read { try await $0.consoleOperator(setupTokenHash: "t1") } == nil)
        await #expect(throws: StoreError.notFound) {
            try await store.write {
                try await $0.updateConsoleOperator(ConsoleOperatorRecord(email: "nobody@example.com", role: .admin, createdAt: 1))
            }
        }
        #expect(try await store.read { try await $0.consoleOperators() }.map(\.email) == ["ops@example.com"])
        try await store.close()
    }

    @Test("sessions: stored by token hash, touched, ended one by one or all of an operator's", arguments: Engine.all)
    func sessions(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        let first = ConsoleSessionRecord(tokenHash: "a", email: "ops@example.com", stage: .awaitingTOTP, createdAt: 1, lastSeenAt: 1)
        let second = ConsoleSessionRecord(tokenHash: "b", email: "ops@example.com", stage: .active, createdAt: 2, lastSeenAt: 2)
        try await store.write { tx in
            try await tx.insertConsoleSession(first)
            try await tx.insertConsoleSession(second)
            try await tx.touchConsoleSession(tokenHash: "b", at: 50)
        }
        #expect(try await store.read { try await $0.consoleSession(tokenHash: "b") }?.lastSeenAt == 50)
        try await store.write { try await $0.deleteConsoleSession(tokenHash: "a") }
        #expect(try await store.read { try await $0.consoleSession(tokenHash: "a") } == nil)
        #expect(try await store.write { try await $0.deleteConsoleSessions(email: "ops@example.com") } == 1)
        #expect(try await store.read { try await $0.consoleSession(tokenHash: "b") } == nil)
        #expect(try await store.write { try await $0.deleteConsoleSessions(idleBefore: 1, createdBefore: 1) } == 0, "nothing is that old")
        try await store.write { tx in
            try await tx.insertConsoleSession(
                ConsoleSessionRecord(tokenHash: "idle", email: "x@example.com", stage: .active, createdAt: 5, lastSeenAt: 5))
            try await tx.insertConsoleSession(
                ConsoleSessionRecord(tokenHash: "old", email: "x@example.com", stage: .active, createdAt: 1, lastSeenAt: 60))
            try await tx.insertConsoleSession(
                ConsoleSessionRecord(tokenHash: "new", email: "x@example.com", stage: .active, createdAt: 5, lastSeenAt: 60))
        }
        #expect(try await store.write { try await $0.deleteConsoleSessions(idleBefore: 10, createdBefore: 2) } == 2)
        #expect(try await store.read { try await $0.consoleSession(tokenHash: "new") } != nil)
        try await store.close()
    }

    @Test("the users search: ID prefix or display name (case-insensitive, wildcards literal), keyset pages", arguments: Engine.all)
    func search(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        try await store.write { tx in
            for (id, name) in [("abc1", "Ada Lovelace"), ("abc2", "Alan"), ("xyz", "Grace 100%"), ("zz", "ABC fan")] {
                var user = UserRecord(localID: id, createdAt: 1, validSince: 1)
                user.displayName = name
                try await tx.insertUser(user)
            }
        }
        func ids(_ prefix: String?, _ name: String?, after: String? = nil, limit: Int = 10) async throws -> [String] {
            try await store.read { try await $0.consoleUsers(idPrefix: prefix, nameContains: name, after: after, limit: limit) }.map(\.localID)
        }
        #expect(try await ids("abc", nil) == ["abc1", "abc2"])
        #expect(try await ids(nil, "lovel") == ["abc1"])
        #expect(try await ids("abc", "abc") == ["abc1", "abc2", "zz"])
        #expect(try await ids(nil, "0%") == ["xyz"])
        #expect(try await ids(nil, "%") == ["xyz"])
        #expect(try await ids(nil, "_") == [])
        #expect(try await ids(nil, nil, limit: 2) == ["abc1", "abc2"])
        #expect(try await ids(nil, nil, after: "abc2", limit: 2) == ["xyz", "zz"])
        try await store.close()
    }
}
