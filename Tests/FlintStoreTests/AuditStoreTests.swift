import FlintCore
import FlintStore
import FlintTesting
import Testing

@Suite("Audit log storage")
struct AuditStoreTests {
    static func event(_ at: Instant, _ kind: AuditKind, uid: String? = nil) -> AuditEvent {
        AuditEvent(
            at: at, kind: kind, uid: uid, ip: "192.0.2.1", actor: uid == nil ? "admin" : nil,
            detail: ["method": "phone", "n": .number(Double(at.millisecondsSince1970))])
    }

    @Test("events come back newest first with every column, filtered by account, kind and time", arguments: Engine.all)
    func filters(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        try await store.write { tx in
            try await tx.appendAuditEvent(Self.event(1_000, .signIn, uid: "u1"))
            try await tx.appendAuditEvent(Self.event(2_000, .signInFailed, uid: "u1"))
            try await tx.appendAuditEvent(Self.event(3_000, .signIn, uid: "u2"))
            try await tx.appendAuditEvent(Self.event(4_000, .configChanged))
        }
        let all = try await store.read { try await $0.auditEvents(AuditQuery()) }
        #expect(all.map(\.at) == [4_000, 3_000, 2_000, 1_000])
        let first = try #require(all.last)
        #expect(first.kind == .signIn && first.uid == "u1" && first.ip == "192.0.2.1" && first.actor == nil)
        #expect(first.detail == ["method": "phone", "n": .number(1_000)])
        #expect(all.first?.actor == "admin" && all.first?.uid == nil)
        #expect(try await store.read { try await $0.auditEvents(AuditQuery(uid: "u1")) }.map(\.at) == [2_000, 1_000])
        #expect(try await store.read { try await $0.auditEvents(AuditQuery(kind: .signIn)) }.map(\.at) == [3_000, 1_000])
        #expect(try await store.read { try await $0.auditEvents(AuditQuery(since: 2_000, until: 4_000)) }.map(\.at) == [3_000, 2_000])
        #expect(try await store.read { try await $0.auditEvents(AuditQuery(uid: "u1", kind: .signIn, limit: 5)) }.count == 1)
        try await store.close()
    }

    @Test("keyset pages over events of the same instant neither repeat nor skip", arguments: Engine.all)
    func pages(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        try await store.write { tx in
            for n in 0..<7 { try await tx.appendAuditEvent(Self.event(n < 4 ? 5_000 : 6_000, .signIn, uid: "u\(n)")) }
        }
        var seen: [String] = []
        var before: Int64?
        while true {
            let page = try await store.read { [before] in try await $0.auditEvents(AuditQuery(beforeID: before, limit: 3)) }
            seen += page.compactMap(\.uid)
            guard page.count == 3, let last = page.last, let id = last.id else { break }
            before = id
        }
        #expect(seen == ["u6", "u5", "u4", "u3", "u2", "u1", "u0"])
        try await store.close()
    }

    @Test("the retention sweep deletes what is older than the cutoff; a rolled-back event never exists", arguments: Engine.all)
    func sweepAndRollback(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        try await store.write { tx in
            for at in [1_000, 2_000, 3_000] as [Instant] { try await tx.appendAuditEvent(Self.event(at, .lockout)) }
        }
        await #expect(throws: Boom.self) {
            try await store.write { tx in
                try await tx.appendAuditEvent(Self.event(9_000, .lockout))
                throw Boom()
            }
        }
        #expect(try await store.write { try await $0.deleteAuditEvents(before: 2_500) } == 2)
        #expect(try await store.read { try await $0.auditEvents(AuditQuery()) }.map(\.at) == [3_000])
        try await store.close()
    }

    @Test("time filters and the sweep find their bounds by bisecting the sequence, exactly, clock steps included", arguments: Engine.all)
    func timeBounds(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        // 300 events 10 ms apart, then a node whose clock is 2 s behind (within the slack) and an event after it.
        let instants: [Instant] =
            (0..<300).map { Instant(millisecondsSince1970: 10_000 + Int64($0) * 10) } + [Instant(millisecondsSince1970: 11_000), 13_100]
        try await store.write { tx in
            for (n, at) in instants.enumerated() {
                try await tx.appendAuditEvent(Self.event(at, n.isMultiple(of: 50) && n < 300 ? .lockout : .signIn))
            }
        }
        let bounds: [(Instant?, Instant?)] = [
            (10_000, nil), (10_995, nil), (11_000, 11_001), (12_990, nil), (13_000, nil), (20_000, nil), (nil, 9_000), (nil, 10_005),
            (nil, 11_000), (10_500, 12_000), (nil, 13_100), (9_000, 14_000),
        ]
        for (since, until) in bounds {
            let expected = instants.filter { at in since.map { at >= $0 } ?? true && until.map { at < $0 } ?? true }.sorted(by: >)
            let found = try await store.read { try await $0.auditEvents(AuditQuery(since: since, until: until, limit: 1_000)) }
            #expect(found.map(\.at).sorted(by: >) == expected, "since \(String(describing: since)) until \(String(describing: until))")
        }
        let lockouts = try await store.read { try await $0.auditEvents(AuditQuery(kind: .lockout, since: 10_500, limit: 10)) }
        #expect(lockouts.map(\.at) == [12_500, 12_000, 11_500, 11_000, 10_500])
        // The sweep deletes up to the first event at or after its cutoff; the late event at 11,000 ms waits for a
        // later sweep, and nothing newer than the cutoff is ever deleted.
        #expect(try await store.write { try await $0.deleteAuditEvents(before: 11_005) } == 101)
        #expect(try await store.read { try await $0.auditEvents(AuditQuery(until: 11_005)) }.map(\.at) == [11_000])
        #expect(try await store.read { try await $0.auditEvents(AuditQuery(since: 11_005, limit: 1_000)) }.count == 200)
        #expect(try await store.write { try await $0.deleteAuditEvents(before: 99_000) } == 201)
        #expect(try await store.write { try await $0.deleteAuditEvents(before: 99_000) } == 0)
        #expect(try await store.read { try await $0.auditEvents(AuditQuery(since: 0)) }.isEmpty)
        try await store.close()
    }

    @Test("an event appended in a write carries the origin bound around the write (SQLite runs it on its writer)", arguments: Engine.all)
    func origin(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        try await AuditOrigin.$current.withValue(AuditOrigin(ip: "198.51.100.8", actor: "cli")) {
            try await store.write { tx in try await tx.audit(.configChanged, uid: nil, at: 7_000, ["updateMask": ["a.b"]]) }
        }
        let event = try #require(try await store.read { try await $0.auditEvents(AuditQuery()) }.first)
        #expect(event.ip == "198.51.100.8" && event.actor == "cli" && event.detail == ["updateMask": ["a.b"]])
        try await store.close()
    }
}
