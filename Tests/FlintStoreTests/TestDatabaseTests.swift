import FlintStore
import FlintTesting
import Foundation
import PostgresNIO
import Synchronization
import Testing

/// The test support that makes PostgreSQL databases: a copy of one migrated template per test, made a few at a time.
@Suite("test databases")
struct TestDatabaseTests {
    @Test("a migrated test database holds this build's schema before any store opens it; an empty one holds no table")
    func migratedIsACopyOfTheTemplate() async throws {
        guard Engine.all.contains(.postgres) else { return }
        for (schema, expected) in [(PostgresTestSchema.migrated, Int64(StoreSchema.latestVersion)), (.empty, nil)] {
            let location = try #require(PostgresStore.Location(url: try await freshPostgresDatabase(schema)))
            let client = testPostgresClient(location)
            let version = try await withThrowingTaskGroup(of: Int64?.self) { group in
                group.addTask {
                    await client.run()
                    return nil
                }
                var found: Int64?
                var table: String?
                for try await row in try await client.query("SELECT to_regclass('flint_schema')::text", logger: testLogger()) {
                    table = try row.decode(String?.self)
                }
                if table != nil {
                    for try await row in try await client.query("SELECT MAX(version)::bigint FROM flint_schema", logger: testLogger()) {
                        found = try row.decode(Int64?.self)
                    }
                }
                group.cancelAll()
                return found
            }
            #expect(version == expected, "\(schema)")
        }
    }

    /// How many callers are inside a gate now, the most at once, and how many have been through.
    private final class Tally: Sendable {
        private let counts = Mutex((now: 0, most: 0, entered: 0, done: 0))

        var most: Int { counts.withLock { $0.most } }
        var done: Int { counts.withLock { $0.done } }

        /// Counts a caller in; returns how many have entered so far, this one included.
        func enter() -> Int {
            counts.withLock {
                $0.now += 1
                $0.most = max($0.most, $0.now)
                $0.entered += 1
                return $0.entered
            }
        }

        func leave() {
            counts.withLock {
                $0.now -= 1
                $0.done += 1
            }
        }
    }

    @Test("a gate of width 2 lets 2 of 12 waiting callers run at once, and every one runs")
    func gateBoundsConcurrency() async {
        let gate = AsyncGate(width: 2)
        let tally = Tally()
        let arrived = EventLog<Void>()
        let entered = EventLog<Int>()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<12 {
                group.addTask {
                    arrived.record(())
                    await gate.pass {
                        let number = tally.enter()
                        entered.record(number)
                        // Inside until every caller has come to the gate (a wider gate would have let more in by
                        // then), and until the caller entering after an odd-numbered one is in too (2 at once).
                        _ = await arrived.wait(for: 12)
                        _ = await entered.wait(for: number + number % 2)
                        tally.leave()
                    }
                }
            }
        }
        #expect(tally.most == 2)
        #expect(tally.done == 12)
    }
}
