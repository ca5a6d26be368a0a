import FlintCore
import FlintStore
import FlintTesting
import Testing

@Suite("Code sessions in the store")
struct CodeSessionStoreTests {
    @Test("the right code spends the session once", arguments: Engine.all)
    func spendOnce(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        _ = try await store.write { try await $0.startCodeSession(session("s1"), maxAttempts: 5) }
        let first = try await store.write { try await $0.spendCode(sessionID: "s1", codeHash: "aa", now: 1_000_001, maxAttempts: 5) }
        guard case .spent(let s) = first else { Issue.record("expected spent, got \(first)"); return }
        #expect(s.phoneNumber == "+16505553434")
        let second = try await store.write { try await $0.spendCode(sessionID: "s1", codeHash: "aa", now: 1_000_002, maxAttempts: 5) }
        #expect(second == .notFound)
        try await store.close()
    }

    @Test("a send while a code is live returns the live session", arguments: Engine.all)
    func reentrant(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        let a = try await store.write { try await $0.startCodeSession(session("s1"), maxAttempts: 5) }
        let b = try await store.write { try await $0.startCodeSession(session("s2", now: 1_000_010), maxAttempts: 5) }
        #expect(!a.reused)
        #expect(b.reused)
        #expect(b.session.id == "s1")
        let other = try await store.write { try await $0.startCodeSession(session("s3", phone: "+16505550000", now: 1_000_010), maxAttempts: 5) }
        #expect(!other.reused, "another number gets its own session")
        let later = try await store.write { try await $0.startCodeSession(session("s4", now: 1_400_000), maxAttempts: 5) }
        #expect(!later.reused && later.session.id == "s4", "an expired session is replaced")
        try await store.close()
    }

    @Test("wrong codes count; after five even the right code fails", arguments: Engine.all)
    func lockout(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        _ = try await store.write { try await $0.startCodeSession(session("s1"), maxAttempts: 5) }
        for left in (0..<5).reversed() {
            let r = try await store.write { try await $0.spendCode(sessionID: "s1", codeHash: "bb", now: 1_000_001, maxAttempts: 5) }
            #expect(r == .wrongCode(attemptsLeft: left, phoneNumber: "+16505553434"))
        }
        let r = try await store.write { try await $0.spendCode(sessionID: "s1", codeHash: "aa", now: 1_000_001, maxAttempts: 5) }
        #expect(r == .locked)
        let fresh = try await store.write { try await $0.startCodeSession(session("s2", now: 1_000_002), maxAttempts: 5) }
        #expect(!fresh.reused, "a locked session is not re-used by the next send")
        try await store.close()
    }

    @Test("expired sessions are swept, live ones kept", arguments: Engine.all)
    func sweep(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        _ = try await store.write { try await $0.startCodeSession(session("old", now: 1_000), maxAttempts: 5) }
        _ = try await store.write { try await $0.startCodeSession(session("new", phone: "+16505550000", now: 2_000_000), maxAttempts: 5) }
        #expect(try await store.write { try await $0.deleteCodeSessions(expiredBefore: 1_000_000) } == 1)
        #expect(try await store.read { try await $0.codeSession(id: "old") } == nil)
        #expect(try await store.read { try await $0.codeSession(id: "new") } != nil)
        try await store.close()
    }

    @Test("an expired session refuses its code", arguments: Engine.all)
    func expiry(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        _ = try await store.write { try await $0.startCodeSession(session("s1"), maxAttempts: 5) }
        let r = try await store.write { try await $0.spendCode(sessionID: "s1", codeHash: "aa", now: 1_300_000, maxAttempts: 5) }
        #expect(r == .expired)
        try await store.close()
    }

    @Test("of many concurrent right answers exactly one wins", arguments: Engine.all)
    func concurrentSpend(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        _ = try await store.write { try await $0.startCodeSession(session("s1"), maxAttempts: 5) }
        let wins = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<40 {
                group.addTask {
                    let r = try await store.write { try await $0.spendCode(sessionID: "s1", codeHash: "aa", now: 1_000_001, maxAttempts: 5) }
                    if case .spent = r { return true }
                    return false
                }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(wins == 1)
        try await store.close()
    }

    @Test("a spend reads the proven number's account, identities and counters with it; a refused one reads nothing", arguments: Engine.all)
    func spendReadingNumber(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        var owner = UserRecord(localID: "owner", createdAt: 900, validSince: Instant(secondsSince1970: 1))
        owner.phoneNumber = "+16505553434"
        let identity = FederatedIdentityRecord(localID: "owner", providerID: "google.com", rawID: "g-1", email: "o@gmail.com")
        try await store.write { [owner] in try await $0.insertImportedUsers([UserAndFactors(user: owner, identities: [identity])]) }
        for _ in 0..<3 {
            _ = try await store.write {
                try await $0.incrementCounter(
                    key: .number(tenant: .default, "+16505553434", .wrongCodes(per: .hour)), windowStart: 60, expiresAt: 9_999_999)
            }
        }
        _ = try await store.write {
            try await $0.incrementCounter(
                key: .number(tenant: .default, "+16505550000", .wrongCodes(per: .hour)), windowStart: 60, expiresAt: 9_999_999)
        }
        let windows = [
            NumberCounter(tenant: .default, .wrongCodes(per: .hour), windowStart: 60),
            NumberCounter(tenant: .default, .wrongCodes(per: .day), windowStart: 0),
        ]
        _ = try await store.write { try await $0.startCodeSession(session("s1"), maxAttempts: 5) }
        _ = try await store.write { try await $0.startCodeSession(session("s2", phone: "+16505550000"), maxAttempts: 5) }

        let wrong = try await store.write {
            try await $0.spendPhoneSignInCode(sessionID: "s1", codeHash: "bb", now: 1_000_001, maxAttempts: 5, counters: windows)
        }
        #expect(wrong.outcome == .wrongCode(attemptsLeft: 4, phoneNumber: "+16505553434"))
        #expect(wrong.owner == nil && wrong.hits.isEmpty)
        let missing = try await store.write {
            try await $0.spendPhoneSignInCode(sessionID: "nope", codeHash: "aa", now: 1_000_001, maxAttempts: 5, counters: windows)
        }
        #expect(missing.outcome == .notFound && missing.hits.isEmpty)

        let spent = try await store.write {
            try await $0.spendPhoneSignInCode(sessionID: "s1", codeHash: "aa", now: 1_000_002, maxAttempts: 5, counters: windows)
        }
        guard case .spent(let s) = spent.outcome else { Issue.record("expected spent, got \(spent.outcome)"); return }
        #expect(s.id == "s1" && s.phoneNumber == "+16505553434" && s.attempts == 1 && s.consumedAt == 1_000_002 && s.createdAt == 1_000_000)
        #expect(spent.owner?.user == owner && spent.owner?.identities == [identity])
        #expect(spent.hits == [3, 0])
        let again = try await store.write {
            try await $0.spendPhoneSignInCode(sessionID: "s1", codeHash: "aa", now: 1_000_003, maxAttempts: 5, counters: windows)
        }
        #expect(again.outcome == .notFound && again.owner == nil)

        // A number no account holds: the session, no account, its own counters.
        let other = try await store.write {
            try await $0.spendPhoneSignInCode(sessionID: "s2", codeHash: "aa", now: 1_000_002, maxAttempts: 5, counters: windows)
        }
        guard case .spent(let s2) = other.outcome else { Issue.record("expected spent, got \(other.outcome)"); return }
        #expect(s2.phoneNumber == "+16505550000" && other.owner == nil && other.hits == [1, 0])
        try await store.close()
    }

    @Test("pending codes list only live sessions with their outbox message", arguments: Engine.all)
    func pending(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        _ = try await store.write { tx in
            _ = try await tx.startCodeSession(session("s1"), maxAttempts: 5)
            _ = try await tx.startCodeSession(session("s2", phone: "+16505550000"), maxAttempts: 5)
            try await tx.appendOutbox(
                OutboxMessage(channel: .sms, recipient: "+16505553434", body: "111111", locale: "en", createdAt: 1, code: "111111", sessionID: "s1"))
            try await tx.appendOutbox(
                OutboxMessage(channel: .sms, recipient: "+16505550000", body: "222222", locale: "en", createdAt: 2, code: "222222", sessionID: "s2"))
        }
        _ = try await store.write { try await $0.spendCode(sessionID: "s1", codeHash: "aa", now: 1_000_001, maxAttempts: 5) }
        let pending = try await store.read { try await $0.pendingCodeMessages(tenant: .default, now: 1_000_002, maxAttempts: 5, phoneNumber: nil) }
        #expect(pending.map(\.code) == ["222222"])
        let none = try await store.read {
            try await $0.pendingCodeMessages(tenant: .default, now: 1_000_002, maxAttempts: 5, phoneNumber: "+16505553434")
        }
        #expect(none.isEmpty)
        let one = try await store.read {
            try await $0.pendingCodeMessages(tenant: .default, now: 1_000_002, maxAttempts: 5, phoneNumber: "+16505550000")
        }
        #expect(one.map(\.code) == ["222222"])
        #expect(try await store.read { try await $0.outbox(limit: 10) }.map(\.code) == ["111111", "222222"])
        try await store.close()
    }
}
