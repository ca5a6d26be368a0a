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
        await #expect(throws: StoreError.conflict(.operatorEmail)) {
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

    @Test("deleting an operator removes it only, and an unknown one is not found", arguments: Engine.all)
    func deleteOperator(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        let session = ConsoleSessionRecord(tokenHash: "s", email: "a@example.com", stage: .active, createdAt: 1, lastSeenAt: 1)
        try await store.write { tx in
            try await tx.insertConsoleOperator(ConsoleOperatorRecord(email: "a@example.com", role: .admin, createdAt: 1))
            try await tx.insertConsoleOperator(ConsoleOperatorRecord(email: "b@example.com", role: .read, setupTokenHash: "t", createdAt: 1))
            try await tx.insertConsoleSession(session)
        }
        #expect(try await store.write { try await $0.lockedConsoleOperatorEmails(role: .admin) } == ["a@example.com"])
        #expect(try await store.write { try await $0.lockedConsoleOperatorEmails(role: .read) } == ["b@example.com"])
        try await store.write { try await $0.deleteConsoleOperator(email: "b@example.com") }
        #expect(try await store.read { try await $0.consoleOperators() }.map(\.email) == ["a@example.com"])
        #expect(try await store.read { try await $0.consoleOperator(setupTokenHash: "t") } == nil)
        await #expect(throws: StoreError.notFound) {
            try await store.write { try await $0.deleteConsoleOperator(email: "b@example.com") }
        }
        try await store.write { try await $0.deleteConsoleOperator(email: "a@example.com") }
        #expect(try await store.read { try await $0.consoleSession(tokenHash: "s") } == session, "sessions are the caller's to end")
        #expect(try await store.read { try await $0.consoleOperators() }.isEmpty)
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

    @Test("the users search: ID prefix or display-name prefix (case-insensitive, wildcards literal), keyset pages", arguments: Engine.all)
    func search(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        let accounts: [(String, String?)] = [
            ("abc1", "Ada Lovelace"), ("abc2", "Alan"), ("xyz", "Grace 100%"), ("zz", "ABC fan"), ("phone", nil),
            ("ab\u{D7FF}z", "z\u{10FFFF}"), ("ab\u{E000}", "Z\u{10FFFF}\u{10FFFF}a"), ("ab\u{10FFFF}x", "{top"),
        ]
        try await store.write { tx in
            for (id, name) in accounts {
                var user = UserRecord(localID: id, createdAt: 1, validSince: 1)
                user.displayName = name
                try await tx.insertUser(user)
            }
        }
        func ids(_ prefix: String?, _ name: String?, after: String? = nil, limit: Int = 10) async throws -> [String] {
            try await store.read { try await $0.consoleUsers(tenant: .default, idPrefix: prefix, namePrefix: name, after: after, limit: limit) }.map(
                \.localID)
        }
        #expect(try await ids("abc", nil) == ["abc1", "abc2"])
        #expect(try await ids("ABC", nil) == [], "local IDs are compared as they are")
        #expect(try await ids(nil, "ada") == ["abc1"])
        #expect(try await ids(nil, "ADA LOVE") == ["abc1"], "names case-insensitively")
        #expect(try await ids(nil, "lovel") == [], "a prefix, not a part")
        #expect(try await ids("abc", "abc") == ["abc1", "abc2", "zz"], "either prefix matches")
        #expect(try await ids(nil, "grace 100%") == ["xyz"])
        #expect(try await ids(nil, "%") == [])
        #expect(try await ids(nil, "grace 1_0") == [])
        #expect(try await ids("", "") == ids(nil, nil), "an empty prefix is no condition")
        #expect(try await ids(nil, nil).count == accounts.count)
        // Characters at the top of the range: the prefix's successor steps over the surrogates and past U+10FFFF.
        #expect(try await ids("ab", nil) == ["abc1", "abc2", "ab\u{D7FF}z", "ab\u{E000}", "ab\u{10FFFF}x"], "code-point order")
        #expect(try await ids("ab\u{D7FF}", nil) == ["ab\u{D7FF}z"])
        #expect(try await ids("ab\u{10FFFF}", nil) == ["ab\u{10FFFF}x"])
        #expect(try await ids("\u{10FFFF}", nil) == [])
        #expect(try await ids(nil, "z\u{10FFFF}") == ["ab\u{D7FF}z", "ab\u{E000}"])
        #expect(try await ids(nil, "z\u{10FFFF}\u{10FFFF}") == ["ab\u{E000}"])
        #expect(try await ids(nil, "z") == ["ab\u{D7FF}z", "ab\u{E000}"], "not {, the character after z")
        #expect(try await ids(nil, nil, limit: 2) == ["abc1", "abc2"])
        #expect(try await ids("ab", nil, after: "abc2", limit: 2) == ["ab\u{D7FF}z", "ab\u{E000}"])
        #expect(try await ids(nil, nil, after: "xyz", limit: 2) == ["zz"])
        try await store.close()
    }

    @Test("a name prefix that thousands of accounts share gives the same pages as a rare one", arguments: Engine.all)
    func commonNamePrefix(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        // More than SQLite's 5,000 matches, past which it walks the primary key instead of sorting the matches.
        let count = 5_100
        @Sendable func id(_ k: Int) -> String { "u" + String(repeating: "0", count: 5 - String(k).count) + String(k) }
        try await store.write { tx in
            for n in 0..<count {
                var user = UserRecord(localID: id(count - n), createdAt: 1, validSince: 1)
                user.displayName = n.isMultiple(of: 2) ? "Common \(n)" : (n == 1 ? "Rare" : nil)
                try await tx.insertUser(user)
            }
        }
        func ids(_ term: String, after: String? = nil) async throws -> [String] {
            try await store.read { try await $0.consoleUsers(tenant: .default, idPrefix: term, namePrefix: term, after: after, limit: 3) }.map(
                \.localID)
        }
        #expect(try await ids("common") == ["u00002", "u00004", "u00006"])
        #expect(try await ids("COMMON 1", after: "u05000") == ["u05082", "u05084", "u05086"], "case-insensitive, after a key")
        #expect(try await ids("u0000") == ["u00001", "u00002", "u00003"])
        #expect(try await ids("rare") == [id(count - 1)])
        try await store.close()
    }
}
