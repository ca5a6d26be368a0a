import FlintStore
import FlintTesting
import Synchronization
import Testing

@Suite("Replaying writes (test mode)")
struct ReplayModeTests {
    @Test("every write closure runs twice on the same state; only the second run's writes stay")
    func runsTwice() async throws {
        let store = try await SQLiteStore(path: nil, replayingWrites: true, logger: testLogger())
        let runs = Mutex(0)
        let seen = try await store.write { tx -> Int64 in
            runs.withLock { $0 += 1 }
            return try await tx.incrementCounter(key: "k", windowStart: 0, expiresAt: 10)
        }
        #expect(runs.withLock { $0 } == 2)
        #expect(seen == 1, "the second run saw the state the first one saw")
        #expect(try await store.read { try await $0.counterValue(key: "k", windowStart: 0) } == 1)
        try await store.close()
    }

    @Test("a closure that succeeds once and fails the other time is refused as not replayable, and writes nothing")
    func notReplayable() async throws {
        let store = try await SQLiteStore(path: nil, replayingWrites: true, logger: testLogger())
        let runs = Mutex(0)
        await #expect(throws: StoreError.notReplayable) {
            try await store.write { tx in
                _ = try await tx.incrementCounter(key: "k", windowStart: 0, expiresAt: 10)
                if runs.withLock({
                    $0 += 1; return $0
                }) == 2 {
                    throw StoreError.notFound
                }
            }
        }
        #expect(try await store.read { try await $0.counterValue(key: "k", windowStart: 0) } == 0)
        try await store.close()
    }

    @Test("a closure that fails both times answers its own error and writes nothing")
    func failsBothTimes() async throws {
        let store = try await SQLiteStore(path: nil, replayingWrites: true, logger: testLogger())
        await #expect(throws: StoreError.conflict(.localID)) {
            try await store.write { tx in
                _ = try await tx.incrementCounter(key: "k", windowStart: 0, expiresAt: 10)
                throw StoreError.conflict(.localID)
            }
        }
        #expect(try await store.read { try await $0.counterValue(key: "k", windowStart: 0) } == 0)
        try await store.close()
    }
}
