import FlintCore
import FlintStore
import FlintTesting
import Testing

@Suite("Counters for limits")
struct CounterStoreTests {
    @Test("concurrent hits are counted exactly, per key and window", arguments: Engine.all)
    func exact(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        let totals = try await withThrowingTaskGroup(of: Int64.self) { group in
            for i in 0..<60 {
                group.addTask {
                    try await store.write { tx in
                        try await tx.incrementCounter(key: i % 3 == 0 ? "ip:b" : "ip:a", windowStart: 1_000, expiresAt: 61_000)
                    }
                }
            }
            return try await group.reduce(into: [Int64]()) { $0.append($1) }
        }
        #expect(totals.count == 60)
        #expect(Set(totals).count == 40, "every hit on ip:a saw a distinct running total")
        #expect(try await store.write { try await $0.incrementCounter(key: "ip:a", windowStart: 1_000, expiresAt: 61_000) } == 41)
        #expect(try await store.write { try await $0.incrementCounter(key: "ip:b", windowStart: 1_000, expiresAt: 61_000) } == 21)
        #expect(
            try await store.write { try await $0.incrementCounter(key: "ip:a", windowStart: 61_000, expiresAt: 121_000) } == 1,
            "a new window starts at 1")
        #expect(try await store.write { try await $0.deleteCounters(expiredBefore: 100_000) } == 2)
        #expect(try await store.write { try await $0.incrementCounter(key: "ip:a", windowStart: 1_000, expiresAt: 61_000) } == 1, "swept")
        try await store.close()
    }

    @Test("several counters read in one statement, in the order asked, 0 for those without hits", arguments: Engine.all)
    func values(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        try await store.write { tx in
            for _ in 0..<3 { _ = try await tx.incrementCounter(key: "ip:a", windowStart: 1_000, expiresAt: 61_000) }
            _ = try await tx.incrementCounter(key: "ip:a", windowStart: 61_000, expiresAt: 121_000)
            _ = try await tx.incrementCounter(key: "phone:+1", windowStart: 1_000, expiresAt: 61_000)
        }
        let windows: [(key: CounterKey, windowStart: Instant)] = [("phone:+1", 1_000), ("ip:b", 1_000), ("ip:a", 61_000), ("ip:a", 1_000)]
        #expect(try await store.read { try await $0.counterValues(windows) } == [1, 0, 1, 3])
        #expect(try await store.read { try await $0.counterValues([]) } == [])
        try await store.close()
    }

    @Test("several counters hit in one statement return their totals in order; a window named twice counts twice", arguments: Engine.all)
    func manyHits(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        _ = try await store.write { try await $0.incrementCounter(key: "ip:a", windowStart: 1_000, expiresAt: 61_000) }
        let windows: [(key: CounterKey, windowStart: Instant, expiresAt: Instant)] = [
            ("phone:+1", 1_000, 61_000), ("ip:a", 1_000, 61_000), ("ip:a", 61_000, 121_000),
        ]
        #expect(try await store.write { try await $0.incrementCounters(windows) } == [1, 2, 1])
        #expect(try await store.write { try await $0.incrementCounters(windows) } == [2, 3, 2])
        #expect(try await store.write { try await $0.incrementCounters([windows[1], windows[1]]) } == [4, 5])
        #expect(try await store.write { try await $0.incrementCounters([]) } == [])
        #expect(try await store.read { try await $0.counterValues(windows.map { ($0.key, $0.windowStart) }) } == [2, 5, 2])
        try await store.close()
    }

    @Test("a reservation counts every window or none: past a maximum it throws and the transaction keeps nothing", arguments: Engine.all)
    func reservation(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        let windows = [
            CounterReservation(key: "sms-sent:h:+1", windowStart: 1_000, expiresAt: 61_000, max: 2),
            CounterReservation(key: "sms-ip:h:a", windowStart: 1_000, expiresAt: 61_000, max: 3),
            CounterReservation(key: "sms-budget:d", windowStart: 0, expiresAt: 86_400_000, max: .max),
        ]
        #expect(try await store.write { try await $0.reserveCounters(windows) } == [1, 1, 1])
        // A send's session and text go with its reservation (on PostgreSQL in the same statement).
        let text = OutboxMessage(channel: .sms, recipient: "+1", body: "123456", locale: "en", createdAt: 1, code: "123456", sessionID: "s2")
        let second = try await store.write { tx in
            _ = try await tx.startCodeSession(session("s2", phone: "+1"), maxAttempts: 5)
            try await tx.appendCodeText(text)
            return try await tx.reserveCounters(windows)
        }
        #expect(second == [2, 2, 2])
        #expect(try await store.read { try await $0.codeSession(id: "s2") } != nil)

        // The third text passes the number's hourly cap: no hit, no session, no text is kept.
        await #expect(throws: CounterPastLimit(key: "sms-sent:h:+1")) {
            try await store.write { tx in
                _ = try await tx.startCodeSession(session("s3", phone: "+2"), maxAttempts: 5)
                try await tx.appendCodeText(
                    OutboxMessage(channel: .sms, recipient: "+2", body: "654321", locale: "en", createdAt: 2, code: "654321", sessionID: "s3"))
                return try await tx.reserveCounters(windows)
            }
        }
        #expect(try await store.read { try await $0.counterValues(windows.map { ($0.key, $0.windowStart) }) } == [2, 2, 2])
        #expect(try await store.read { try await $0.codeSession(id: "s3") } == nil)
        #expect(try await store.read { try await $0.outbox(limit: 10) }.map(\.code) == ["123456"])

        // After an earlier write (the transaction has begun) a refusal rolls that write back too; the first window past
        // its maximum, in order, is named.
        let ipFirst = [
            CounterReservation(key: "sms-ip:h:a", windowStart: 1_000, expiresAt: 61_000, max: 2),
            CounterReservation(key: "sms-sent:h:+1", windowStart: 1_000, expiresAt: 61_000, max: 2),
        ]
        await #expect(throws: CounterPastLimit(key: "sms-ip:h:a")) {
            try await store.write { tx in
                _ = try await tx.incrementCounter(key: "other", windowStart: 0, expiresAt: 10)
                return try await tx.reserveCounters(ipFirst)
            }
        }
        #expect(try await store.read { try await $0.counterValue(key: "other", windowStart: 0) } == 0)
        #expect(try await store.read { try await $0.counterValues(windows.map { ($0.key, $0.windowStart) }) } == [2, 2, 2])
        try await store.close()
    }

    @Test("of many concurrent reservations exactly the maximum win, and the refused ones leave no hit", arguments: Engine.all)
    func concurrentReservations(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        let windows = [
            CounterReservation(key: "sms-sent:h:+1", windowStart: 1_000, expiresAt: 61_000, max: 5),
            CounterReservation(key: "sms-budget:d", windowStart: 0, expiresAt: 86_400_000, max: .max),
        ]
        let granted = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<24 {
                group.addTask {
                    do {
                        _ = try await store.write { try await $0.reserveCounters(windows) }
                        return true
                    } catch is CounterPastLimit {
                        return false
                    }
                }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(granted == 5)
        #expect(try await store.read { try await $0.counterValues(windows.map { ($0.key, $0.windowStart) }) } == [5, 5])
        try await store.close()
    }

    @Test("two nodes on one PostgreSQL count one total", .enabled(if: Engine.all.contains(.postgres)))
    func acrossNodes() async throws {
        let (node1, url) = try await makeStore(.postgres)
        let (node2, _) = try await makeStore(.postgres, location: url)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0..<80 {
                let node = i % 2 == 0 ? node1 : node2
                group.addTask { _ = try await node.write { try await $0.incrementCounter(key: "phone:+16505553434", windowStart: 0, expiresAt: 1) } }
            }
            try await group.waitForAll()
        }
        #expect(try await node2.write { try await $0.incrementCounter(key: "phone:+16505553434", windowStart: 0, expiresAt: 1) } == 81)
        try await node1.close()
        try await node2.close()
    }
}

@Suite("Account locks")
struct AccountLockStoreTests {
    @Test("a hit with a later expiry keeps its window longer; releases take one hit from each window in one call", arguments: Engine.all)
    func laterExpiryAndRelease(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        let key = CounterKey.accountFailures(tenant: .default, email: "a@example.com")
        _ = try await store.write { try await $0.incrementCounters([(key, .epoch, 10_000), ("ip:a", 1_000, 61_000)]) }
        #expect(try await store.write { try await $0.incrementCounters([(key, .epoch, 90_000), ("ip:a", 1_000, 61_000)]) } == [2, 2])
        #expect(try await store.write { try await $0.deleteCounters(expiredBefore: 70_000) } == 1, "the window of ip:a only")
        #expect(try await store.read { try await $0.counterValues([(key, .epoch)]) } == [2])
        _ = try await store.write { try await $0.incrementCounter(key: "ip:b", windowStart: 1_000, expiresAt: 61_000) }
        try await store.write { try await $0.releaseCounters([(key, .epoch), ("ip:b", 1_000), ("ip:none", 1_000)]) }
        #expect(try await store.read { try await $0.counterValues([(key, .epoch), ("ip:b", 1_000), ("ip:none", 1_000)]) } == [1, 0, 0])
        try await store.close()
    }

    @Test("a lock is stored, replaced, read by address, cleared with the failures, and swept once ended", arguments: Engine.all)
    func locks(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        let first = AccountLock(email: "a@example.com", failures: 5, lockedAt: 1_000, lockedUntil: 61_000)
        let longer = AccountLock(email: "a@example.com", failures: 6, lockedAt: 70_000, lockedUntil: 190_000)
        let other = AccountLock(email: "b@example.com", failures: 5, lockedAt: 1_000, lockedUntil: 61_000)
        try await store.write { tx in
            try await tx.lockAccount(first)
            try await tx.lockAccount(longer)
            try await tx.lockAccount(other)
            _ = try await tx.incrementCounter(
                key: .accountFailures(tenant: .default, email: "a@example.com"), windowStart: .epoch, expiresAt: 900_000)
        }
        let read = try await store.read { try await $0.accountLocks(tenant: .default, emails: ["a@example.com", "c@example.com"]) }
        #expect(read == [longer])
        #expect(longer.holds(at: 189_999) && !longer.holds(at: 190_000))
        #expect(try await store.write { try await $0.clearAccountFailures(tenant: .default, email: "a@example.com") } == longer)
        #expect(try await store.read { try await $0.counterValues([(.accountFailures(tenant: .default, email: "a@example.com"), .epoch)]) } == [0])
        #expect(try await store.write { try await $0.clearAccountFailures(tenant: .default, email: "a@example.com") } == nil)
        #expect(try await store.write { try await $0.deleteAccountLocks(endedBefore: 61_001) } == 1)
        #expect(try await store.read { try await $0.accountLocks(tenant: .default, emails: ["b@example.com"]) }.isEmpty)
        try await store.close()
    }

    @Test("a tenant's lock of an address is not another tenant's, and clearing one leaves the other", arguments: Engine.all)
    func locksPerTenant(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        let tenant = TenantID(rawValue: "acme-1a2b3")
        let theirs = AccountLock(tenant: tenant, email: "a@example.com", failures: 5, lockedAt: 1_000, lockedUntil: 61_000)
        try await store.write { try await $0.lockAccount(theirs) }
        #expect(try await store.read { try await $0.accountLocks(tenant: .default, emails: ["a@example.com"]) }.isEmpty)
        #expect(try await store.read { try await $0.accountLocks(tenant: tenant, emails: ["a@example.com"]) } == [theirs])
        #expect(try await store.write { try await $0.clearAccountFailures(tenant: .default, email: "a@example.com") } == nil)
        #expect(try await store.write { try await $0.clearAccountFailures(tenant: tenant, email: "a@example.com") } == theirs)
        #expect(
            CounterKey.accountFailures(tenant: tenant, email: "a@example.com") != CounterKey.accountFailures(tenant: .default, email: "a@example.com")
        )
        try await store.close()
    }
}
