import FlintStore
import FlintTesting
import Foundation
import PostgresNIO
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
    private actor Tally {
        var now = 0, most = 0, done = 0
        func enter() {
            now += 1
            most = max(most, now)
        }
        func leave() {
            now -= 1
            done += 1
        }
    }

    @Test("a gate of width 2 lets 2 of 12 waiting callers run at once, and every one runs")
    func gateBoundsConcurrency() async {
        let gate = AsyncGate(width: 2)
        let tally = Tally()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<12 {
                group.addTask {
                    await gate.pass {
                        await tally.enter()
                        try? await Task.sleep(for: .milliseconds(20))
                        await tally.leave()
                    }
                }
            }
        }
        #expect(await tally.most == 2)
        #expect(await tally.done == 12)
    }
}
