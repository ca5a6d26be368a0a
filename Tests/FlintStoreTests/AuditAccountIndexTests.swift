import FlintCore
import FlintStore
import FlintTesting
import Testing

/// The audit log's account index, written after commit (migration 24): an account's listing is whole however far the
/// index has caught up, and no event is lost when the catch-up never runs or fails.
@Suite("Audit log: the account index off the sign-in's transaction")
struct AuditAccountIndexTests {
    /// Events 1…`count` at 1,000 ms apart, alternately of `u1` and `u2`, every third one a lockout, every fifth one without account.
    static func append(_ count: Int, to store: any AuthStore, from start: Int = 1) async throws {
        try await store.write { tx in
            for n in start..<start + count {
                let uid = n.isMultiple(of: 5) ? nil : n.isMultiple(of: 2) ? "u2" : "u1"
                try await tx.appendAuditEvent(
                    AuditStoreTests.event(Instant(millisecondsSince1970: Int64(n) * 1_000), n.isMultiple(of: 3) ? .lockout : .signIn, uid: uid))
            }
        }
    }

    /// The instants (seconds) of `u1`'s events as listed a page of `size` at a time, with `kind`, `since` and `until`.
    static func listing(
        _ store: any AuthStore, uid: String = "u1", kind: AuditKind? = nil, since: Instant? = nil, until: Instant? = nil, size: Int = 4
    ) async throws -> [Int64] {
        var seen: [Int64] = []
        var before: Int64?
        while true {
            let query = AuditQuery(uid: uid, kind: kind, since: since, until: until, beforeID: before, limit: size)
            let page = try await store.read { try await $0.auditEvents(query) }
            seen += page.map { $0.at.millisecondsSince1970 / 1_000 }
            guard page.count == size, let last = page.last?.id else { return seen }
            before = last
        }
    }

    /// What `listing` should find: `u1`'s events among 1…`count`, newest first.
    static func expected(_ count: Int, kind: AuditKind? = nil, since: Int64 = 0, until: Int64 = .max) -> [Int64] {
        (1...Int64(count)).reversed().filter { n in
            !n.isMultiple(of: 5) && !n.isMultiple(of: 2) && n >= since && n < until
                && (kind.map { ($0 == .lockout) == n.isMultiple(of: 3) } ?? true)
        }
    }

    @Test("an account's events are listed whole, in pages and with every filter, before, across and after the catch-up", arguments: Engine.all)
    func wholeAcrossProgress(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        try await Self.append(40, to: store)
        func check(_ stage: String) async throws {
            #expect(try await Self.listing(store) == Self.expected(40), "\(stage)")
            #expect(try await Self.listing(store, kind: .lockout, size: 2) == Self.expected(40, kind: .lockout), "\(stage)")
            #expect(try await Self.listing(store, kind: .signIn) == Self.expected(40, kind: .signIn), "\(stage)")
            #expect(try await Self.listing(store, since: 9_000, until: 31_000, size: 3) == Self.expected(40, since: 9, until: 31), "\(stage)")
            #expect(try await Self.listing(store, uid: "nobody").isEmpty, "\(stage)")
        }
        try await check("nothing indexed")
        let horizon = try await store.write { try await $0.auditIndexHorizon() }
        #expect(horizon == 40)
        #expect(try await store.write { try await $0.indexAuditEvents(through: 17, limit: 1_000) } == 17)
        try await check("indexed through 17")
        #expect(try await store.write { try await $0.indexAuditEvents(through: horizon, limit: 10) } == 10)
        try await check("indexed through 27")
        #expect(try await store.catchUpAuditIndex(batch: 5) == 13)
        #expect(try await store.catchUpAuditIndex() == 0, "caught up")
        try await check("caught up")
        try await Self.append(10, to: store, from: 41)
        #expect(try await Self.listing(store) == Self.expected(50))
        #expect(try await store.catchUpAuditIndex() == 10)
        #expect(try await Self.listing(store) == Self.expected(50))
        try await store.close()
    }

    @Test("events committed before a crash, with no catch-up, or a catch-up rolled back, are listed and indexed later", arguments: Engine.all)
    func crashBeforeCatchUp(engine: Engine) async throws {
        let (store, location) = try await makeStore(engine)
        try await Self.append(30, to: store)
        // A catch-up that fails after indexing changes nothing: its transaction is rolled back.
        await #expect(throws: Boom.self) {
            try await store.write { tx in
                _ = try await tx.indexAuditEvents(through: 30, limit: 100)
                throw Boom()
            }
        }
        // The process ends between the events' commit and any catch-up.
        try await store.close()
        let (reopened, _) = try await makeStore(engine, location: location)
        #expect(try await Self.listing(reopened) == Self.expected(30))
        #expect(try await reopened.catchUpAuditIndex() == 30)
        #expect(try await Self.listing(reopened) == Self.expected(30))
        try await reopened.close()
    }

    @Test("the retention sweep drops the index's old entries; once the log is empty, new events are listed and indexed", arguments: Engine.all)
    func sweep(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        try await Self.append(20, to: store)
        _ = try await store.catchUpAuditIndex()
        #expect(try await store.write { try await $0.deleteAuditEvents(before: 10_500) } == 10)
        #expect(try await Self.listing(store) == Self.expected(20, since: 11))
        #expect(try await store.write { try await $0.deleteAuditEvents(before: 99_000) } == 10)
        #expect(try await Self.listing(store).isEmpty)
        // SQLite numbers the next event 1 again: the index's progress started over with the empty log.
        try await Self.append(7, to: store)
        #expect(try await Self.listing(store) == Self.expected(7))
        #expect(try await store.catchUpAuditIndex() == 7)
        #expect(try await Self.listing(store) == Self.expected(7))
        try await store.close()
    }
}
