import FlintCore
import FlintStore
import FlintTesting
import Testing

@Suite("Email storage: oob codes, passwords, outbox delivery state")
struct EmailStoreTests {
    static func code(_ hash: String, email: String = "a@example.com", type: OobCodeKind = .emailSignIn, expiresAt: Instant = 2_000_000)
        -> OobCodeRecord
    {
        OobCodeRecord(
            codeHash: hash, requestType: type, email: email, localID: nil, createdAt: 1_000_000, expiresAt: expiresAt, continueURL: "https://x/")
    }

    @Test("an oob code is used once, by exactly one of concurrent callers", arguments: Engine.all)
    func useOnce(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        try await store.write { try await $0.insertOobCode(Self.code("h1")) }
        let outcomes = try await withThrowingTaskGroup(of: OobCodeUse.self) { group in
            for _ in 0..<10 {
                group.addTask { try await store.write { try await $0.useOobCode(hash: "h1", requestType: .emailSignIn, now: 1_500_000) } }
            }
            return try await group.reduce(into: [OobCodeUse]()) { $0.append($1) }
        }
        #expect(outcomes.filter { if case .used = $0 { true } else { false } }.count == 1)
        #expect(outcomes.filter { $0 == .invalid }.count == 9)
        #expect(try await store.read { try await $0.oobCode(hash: "h1") }?.usedAt == 1_500_000)
        try await store.close()
    }

    @Test("expired, unknown and wrong-type codes are told apart; expired ones are swept", arguments: Engine.all)
    func outcomes(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        try await store.write { tx in
            try await tx.insertOobCode(Self.code("old", expiresAt: 1_100_000))
            try await tx.insertOobCode(Self.code("reset", type: .passwordReset))
        }
        #expect(try await store.write { try await $0.useOobCode(hash: "old", requestType: .emailSignIn, now: 1_200_000) } == .expired)
        #expect(try await store.write { try await $0.useOobCode(hash: "nope", requestType: .emailSignIn, now: 1_200_000) } == .invalid)
        #expect(try await store.write { try await $0.useOobCode(hash: "reset", requestType: .emailSignIn, now: 1_200_000) } == .invalid)
        #expect(try await store.write { try await $0.deleteOobCodes(expiredBefore: 1_500_000) } == 1)
        #expect(try await store.read { try await $0.oobCode(hash: "old") } == nil)
        try await store.close()
    }

    @Test("users keep their password hash and email-link flag; email is unique", arguments: Engine.all)
    func userColumns(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        var user = UserRecord(localID: "u1", createdAt: 1, validSince: Instant(secondsSince1970: 1))
        user.email = "a@example.com"
        user.passwordHash = "$scrypt$ln=10,r=8,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA"
        user.passwordUpdatedAt = 5
        user.emailLinkSignIn = true
        let stored = user
        try await store.write { try await $0.insertUser(stored) }
        #expect(try await store.read { try await $0.user(tenant: .default, email: "a@example.com") } == stored)
        var twin = UserRecord(localID: "u2", createdAt: 1, validSince: Instant(secondsSince1970: 1))
        twin.email = "a@example.com"
        let duplicate = twin
        await #expect(throws: StoreError.conflict(.email)) { try await store.write { try await $0.insertUser(duplicate) } }
        try await store.close()
    }

    @Test("an outbox record is claimed by one deliverer, retried when its lease lapses, and redacted when done", arguments: Engine.all)
    func outboxDelivery(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        var message = OutboxMessage(
            channel: .email, recipient: "a@example.com", body: "text with link", locale: "en", createdAt: 1, code: "c", sessionID: "h")
        message.email = .init(subject: "Sign in", html: "<p>link</p>", link: "https://x/__/auth/action?oobCode=c", requestType: .emailSignIn)
        message.status = .queued
        let queued = message
        let seq = try await store.write { try await $0.appendOutbox(queued) }
        #expect(try await store.read { try await $0.dueOutbox(now: 10, limit: 10) } == [seq])
        let first = try await store.write { try await $0.claimOutbox(sequence: seq, now: 10, leaseUntil: 100) }
        #expect(first?.attempts == 1)
        #expect(first?.email?.subject == "Sign in")
        #expect(try await store.write { try await $0.claimOutbox(sequence: seq, now: 50, leaseUntil: 150) } == nil, "held by the first claim")
        #expect(try await store.read { try await $0.dueOutbox(now: 50, limit: 10) }.isEmpty)
        let second = try await store.write { try await $0.claimOutbox(sequence: seq, now: 101, leaseUntil: 200) }
        #expect(second?.attempts == 2, "a lapsed lease is taken over")
        try await store.write { try await $0.finishOutbox(sequence: seq, status: .sent, detail: "250 OK", redact: true) }
        let done = try #require(try await store.read { try await $0.outbox(limit: 10) }.first)
        #expect(done.status == .sent)
        #expect(done.statusDetail == "250 OK")
        #expect(done.body.isEmpty)
        #expect(done.code == nil)
        #expect(done.email?.subject == "Sign in")
        #expect(done.email?.link.isEmpty == true)
        #expect(try await store.read { try await $0.dueOutbox(now: 1_000, limit: 10) }.isEmpty)
        try await store.close()
    }
}
