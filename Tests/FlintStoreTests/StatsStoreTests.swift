import FlintCore
import FlintTesting
import Testing

@testable import FlintStore

@Suite("Dashboard counters: hourly upserts, hour and day buckets, the sweep")
struct StatsStoreTests {
    static let hour: Int64 = 3_600_000
    static let day: Int64 = 86_400_000
    /// Midnight UTC, 2026-11-20.
    static let midnight: Int64 = 1_795_132_800_000

    static func count(_ at: Int64, _ metric: StatMetric, _ label: String, _ n: Int64) -> StatCount {
        StatCount(StatKey(bucket: Instant(millisecondsSince1970: at), metric: metric, label: label), count: n)
    }

    @Test("adding to a counter sums; metrics, labels and hours count apart", arguments: Engine.all)
    func upsert(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        let h = Self.midnight + 13 * Self.hour
        try await store.write { try await $0.addStats([Self.count(h, .signIn, "phone", 2), Self.count(h, .signIn, "password", 1)]) }
        try await store.write { try await $0.addStats([Self.count(h, .signIn, "phone", 3), Self.count(h + Self.hour, .signIn, "phone", 1)]) }
        try await store.write { try await $0.addStats([Self.count(h, .smsSent, "phone", 4)]) }
        // One batch naming a key twice, and a batch longer than one statement's 100 rows.
        try await store.write {
            try await $0.addStats([Self.count(h, .signIn, "password", 1), Self.count(h, .signIn, "password", -1), Self.count(h, .signIn, "phone", 0)])
        }
        let many = (0..<150).map { Self.count(h + 3 * Self.hour, .signIn, "label-\($0)", 1) }
        try await store.write { try await $0.addStats(many + many) }
        let spread = try await store.read {
            try await $0.stats(
                from: Instant(millisecondsSince1970: h + 3 * Self.hour), to: Instant(millisecondsSince1970: h + 4 * Self.hour), bucket: .seconds(3600)
            )
        }
        #expect(spread.count == 150 && spread.allSatisfy { $0.count == 2 })
        let found = try await store.read {
            try await $0.stats(from: Instant(millisecondsSince1970: h), to: Instant(millisecondsSince1970: h + 2 * Self.hour), bucket: .seconds(3600))
        }
        #expect(
            found == [
                Self.count(h, .signIn, "password", 1), Self.count(h, .signIn, "phone", 5), Self.count(h, .smsSent, "phone", 4),
                Self.count(h + Self.hour, .signIn, "phone", 1),
            ])
        try await store.close()
    }

    @Test("counts from concurrent writers all land", arguments: Engine.all)
    func concurrent(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        let h = Self.midnight
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask { try await store.write { try await $0.addStats([Self.count(h, .error, "INVALID_CODE", 1)]) } }
            }
            try await group.waitForAll()
        }
        let found = try await store.read {
            try await $0.stats(from: .epoch, to: Instant(millisecondsSince1970: h + Self.day), bucket: .seconds(3600))
        }
        #expect(found == [Self.count(h, .error, "INVALID_CODE", 8)])
        try await store.close()
    }

    @Test("day buckets sum a UTC day's hours; the end of the range is excluded; the sweep deletes older hours", arguments: Engine.all)
    func days(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        let m = Self.midnight
        try await store.write { tx in
            try await tx.addStats([
                Self.count(m - Self.hour, .newUser, "phone", 7), Self.count(m, .newUser, "phone", 1),
                Self.count(m + 23 * Self.hour, .newUser, "phone", 2),
                Self.count(m + Self.day, .newUser, "phone", 4), Self.count(m + 2 * Self.day, .newUser, "phone", 100),
            ])
        }
        let found = try await store.read {
            try await $0.stats(
                from: Instant(millisecondsSince1970: m - Self.day), to: Instant(millisecondsSince1970: m + 2 * Self.day), bucket: .seconds(86_400))
        }
        #expect(
            found == [
                Self.count(m - Self.day, .newUser, "phone", 7), Self.count(m, .newUser, "phone", 3), Self.count(m + Self.day, .newUser, "phone", 4),
            ])
        #expect(try await store.write { try await $0.deleteStats(before: Instant(millisecondsSince1970: m + Self.day)) } == 3)
        let left = try await store.read {
            try await $0.stats(from: .epoch, to: Instant(millisecondsSince1970: m + 3 * Self.day), bucket: .seconds(3600))
        }
        #expect(left.map(\.count) == [4, 100])
        try await store.close()
    }

    @Test("a range of hours is read by a walk of the primary key's range (hour first), not a scan of the table")
    func rangeIsAnIndexWalk() async throws {
        let location = try await MigrationTests.database(.sqlite, through: Migrations.latest, [])
        let db = try SQLiteDatabase(path: location)
        defer { db.close() }
        let plan = try await db.query(
            .read(
                """
                EXPLAIN QUERY PLAN SELECT (hour / 86400000) * 86400000 AS bucket, metric, label, CAST(SUM(n) AS BIGINT) AS n FROM stats
                WHERE hour >= ? AND hour < ? GROUP BY bucket, metric, label ORDER BY bucket, metric, label
                """, [.integer(0), .integer(Self.day * 365)])
        ).map { try $0.string("detail") }.joined(separator: "; ")
        #expect(plan.contains("SEARCH stats USING INDEX sqlite_autoindex_stats_1 (hour>? AND hour<?)"), "\(plan)")
    }
}
