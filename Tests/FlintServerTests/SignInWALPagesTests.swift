import FlintCore
import FlintServerTestSupport
import FlintTesting
import Foundation
import Logging
import Testing

@testable import FlintServer
@testable import FlintStore

/// What one sign-in's commit writes to SQLite's WAL, counted from the frame headers (the method BENCHMARKS.md used
/// on 2026-11-26, made deterministic): the WAL is truncated by a checkpoint just before the sign-in, so every frame
/// in it afterwards is the sign-in's; each frame names a page, which `dbstat` maps to its table or index.
@Suite("A sign-in's commit, in WAL pages")
struct SignInWALPagesTests {
    /// Accounts, sessions and audit events already in the database, so that every B-tree has its working depth.
    static let seededAccounts = 20_000

    /// What the sign-ins of one run committed (each sign-in's pages: its request's commits, the services' pages left
    /// out), and the catch-up of the account index after them.
    struct Run {
        var fictional: [WALProbe.Commit] = []
        var real: [WALProbe.Commit] = []
        var catchUp: [WALProbe.Commit] = []
        var indexed = 0
        var names: [UInt32: String] = [:]
    }

    @Test("a fictional sign-in of an existing account commits at most 11 pages, fewer than with migration 14's account index")
    func pagesPerSignIn() async throws {
        let old = try await Self.run(withMigration14AccountIndex: true)
        let new = try await Self.run(withMigration14AccountIndex: false)
        for (name, run) in [("migration 14's layout", old), ("migration 24's layout", new)] {
            print("\(name): a fictional sign-in's commit \(WALProbe.summary(run.fictional, names: run.names))")
            print("\(name): a real-number sign-in's commit \(WALProbe.summary(run.real, names: run.names))")
            if !run.catchUp.isEmpty {
                let pages = Double(run.catchUp.map { Set($0.pages).count }.reduce(0, +))
                print("\(name): the account index's catch-up: \(run.indexed) events in \(run.catchUp.count) commits, \(pages) pages")
            }
        }
        #expect(new.fictional.allSatisfy { !$0.pages.isEmpty } && new.real.allSatisfy { !$0.pages.isEmpty }, "every sign-in committed")
        #expect(WALProbe.mean(new.fictional) <= 11, "\(WALProbe.summary(new.fictional, names: new.names))")
        #expect(WALProbe.mean(new.fictional) < WALProbe.mean(old.fictional))
        #expect(WALProbe.mean(new.real) < WALProbe.mean(old.real))
    }

    @Test("a new phone account's commit writes no page of the email index, one fewer than with migration 21's unique indexes")
    func partialUniqueIndexes() async throws {
        let old = try await Self.run(withMigration14AccountIndex: false, withMigration21UniqueIndexes: true)
        let new = try await Self.run(withMigration14AccountIndex: false)
        print("migration 21's unique indexes: a real-number sign-in's commit \(WALProbe.summary(old.real, names: old.names))")
        print("migration 33's unique indexes: a real-number sign-in's commit \(WALProbe.summary(new.real, names: new.names))")
        func emailIndexPages(_ run: Run) -> Int { run.real.map { Set($0.pages).filter { run.names[$0] == "users_email" }.count }.reduce(0, +) }
        #expect(emailIndexPages(old) > 0)
        #expect(emailIndexPages(new) == 0)
        #expect(WALProbe.mean(new.real) < WALProbe.mean(old.real))
    }

    /// Seeds a database, signs in 10 fictional numbers, then measures 30 more of their sign-ins and 20 real-number
    /// sign-ins (each a new account), and the account index's catch-up after them. `withMigration14AccountIndex` puts
    /// back the index a sign-in's transaction wrote before migration 24; `withMigration21UniqueIndexes` the unique
    /// email and number indexes with an entry for every account, as before migration 33.
    static func run(withMigration14AccountIndex: Bool, withMigration21UniqueIndexes: Bool = false) async throws -> Run {
        let path = temporaryDatabasePath()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        try await WALProbe.seed(path, accounts: Self.seededAccounts)
        let probe = try WALProbe(path: path)
        defer { probe.close() }
        if withMigration14AccountIndex { try probe.db.execute("CREATE INDEX audit_events_uid ON audit_events (uid, id) WHERE uid IS NOT NULL") }
        if withMigration21UniqueIndexes {
            for column in ["email", "phone_number"] {
                try probe.db.execute("DROP INDEX users_\(column)")
                try probe.db.execute("CREATE UNIQUE INDEX users_\(column) ON users (tenant_id, \(column))")
            }
        }
        var logger = Logger(label: "flint-test")
        logger.logLevel = .warning
        let store = try await SQLiteStore(path: path, logger: logger)
        var settings = ServerSettings()
        settings.port = 0
        let clock = ManualClock(Instant(Date()))
        let server = try await FlintServer(settings: settings, store: store, clock: clock, sms: nil, logger: logger)
        let numbers = (0..<10).map { "+1650555\(String(format: "%04d", 3400 + $0))" }
        var run = try await TestNode(server: server, clock: clock, store: store).run { api in
            try await api.setTestNumbers(Dictionary(uniqueKeysWithValues: numbers.map { ($0, "123456") }))
            for number in numbers { _ = try API.signedIn(try await api.verify(try await api.sendCode(number), code: "123456")) }
            _ = try await store.catchUpAuditIndex()
            var run = Run()
            for round in 0..<30 {
                let session = try await api.sendCode(numbers[round % numbers.count])
                try probe.truncate()
                _ = try API.signedIn(try await api.verify(session, code: "123456"))
                run.fictional.append(WALProbe.Commit(pages: try probe.commits(skipping: WALProbe.background).flatMap(\.pages)))
            }
            for round in 0..<20 {
                let number = "+1212555\(String(format: "%04d", 1000 + round))"
                let session = try await api.sendCode(number)
                let code = try await api.pendingCode(for: number)
                try probe.truncate()
                _ = try API.signedIn(try await api.verify(session, code: code))
                run.real.append(WALProbe.Commit(pages: try probe.commits(skipping: WALProbe.background).flatMap(\.pages)))
            }
            if !withMigration14AccountIndex {
                try probe.truncate()
                run.indexed = try await store.catchUpAuditIndex()
                run.catchUp = try probe.commits()
            }
            return run
        }
        run.names = try probe.pageNames()
        return run
    }
}

/// A checkpoint that could not empty the WAL (a reader held an older snapshot).
struct CheckpointBlocked: Error {}

/// Reads a SQLite database's WAL beside the store that writes it.
struct WALProbe {
    /// One commit: the pages its frames wrote.
    struct Commit {
        var pages: [UInt32]
    }

    let path: String
    let db: SQLiteDatabase

    init(path: String) throws {
        (self.path, self.db) = (path, try SQLiteDatabase(path: path, creating: false))
    }

    func close() { db.close() }

    /// Copies the WAL into the database and empties it (no reader holds an older snapshot between requests).
    func truncate() throws {
        let row = try db.querySync("PRAGMA wal_checkpoint(TRUNCATE)", []).first
        guard try row?.int64("busy") == 0 else { throw CheckpointBlocked() }
    }

    /// What the node's services write once a second beside the requests (the dashboard's counters, the audit log's
    /// account index): their transactions may commit in the window a sign-in is measured in, or with it.
    static let background: Set<String> = ["stats", "sqlite_autoindex_stats_1", "audit_uid_events", "audit_uid_events_uid", "audit_uid_progress"]

    /// The commits in the WAL since the last ``truncate()`` (frames with the header's salts, split at commit frames),
    /// without the pages of the tables and indexes in `skipping` (and without the commits that wrote only those).
    func commits(skipping: Set<String> = []) throws -> [Commit] {
        let names = skipping.isEmpty ? [:] : try pageNames()
        return try allCommits().compactMap { commit in
            let pages = commit.pages.filter { !skipping.contains(names[$0] ?? "") }
            return pages.isEmpty ? nil : Commit(pages: pages)
        }
    }

    private func allCommits() throws -> [Commit] {
        let wal = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path + "-wal")))
        guard wal.count >= 32 else { return [] }
        func word(_ at: Int) -> UInt32 { wal[at..<at + 4].reduce(0) { $0 << 8 | UInt32($1) } }
        let pageSize = Int(word(8))
        let salts = (word(16), word(20))
        var commits: [Commit] = []
        var pending: [UInt32] = []
        var offset = 32
        while offset + 24 + pageSize <= wal.count, (word(offset + 8), word(offset + 12)) == salts {
            pending.append(word(offset))
            if word(offset + 4) != 0 {
                commits.append(Commit(pages: pending))
                pending = []
            }
            offset += 24 + pageSize
        }
        return commits
    }

    /// Each page's table or index, from `dbstat` (read after the run, when every page written exists).
    func pageNames() throws -> [UInt32: String] {
        var names: [UInt32: String] = [1: "sqlite_schema"]
        for row in try db.querySync("SELECT name, pageno FROM dbstat", []) { names[UInt32(try row.int64("pageno"))] = try row.string("name") }
        return names
    }

    /// The mean number of distinct pages per commit.
    static func mean(_ commits: [Commit]) -> Double {
        commits.isEmpty ? 0 : Double(commits.map { Set($0.pages).count }.reduce(0, +)) / Double(commits.count)
    }

    /// "10.2 (users 1.0, …)": the mean per commit, and per table or index.
    static func summary(_ commits: [Commit], names: [UInt32: String]) -> String {
        var byName: [String: Int] = [:]
        for commit in commits { for page in Set(commit.pages) { byName[names[page] ?? "freelist", default: 0] += 1 } }
        let parts = byName.sorted { $0.value > $1.value }.map { "\($0.key) \(String(format: "%.1f", Double($0.value) / Double(commits.count)))" }
        return String(format: "%.2f", mean(commits)) + " (" + parts.joined(separator: ", ") + ")"
    }

    /// A database at the newest schema holding `accounts` phone accounts, a session each and five sign-in events
    /// each (indexed by account), written by SQL alone (fast); local IDs and token hashes are scattered as real ones are.
    static func seed(_ path: String, accounts: Int) async throws {
        var logger = Logger(label: "flint-test")
        logger.logLevel = .warning
        try await SQLiteStore(path: path, logger: logger).close()
        let db = try SQLiteDatabase(path: path, creating: false)
        defer { db.close() }
        let scattered = "printf('%08x%08x', (i * 2654435761) % 4294967291, (i * 40503 + 7) % 4294967291)"
        try db.execute("BEGIN")
        try db.execute(
            """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(accounts))
            INSERT INTO users (local_id, phone_number, created_at, last_login_at, valid_since)
            SELECT 'seed' || \(scattered), '+1555' || printf('%07d', i), 1700000000000 + i, 1700000000000 + i, 1700000000000 FROM n
            """)
        try db.execute(
            """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(accounts))
            INSERT INTO refresh_tokens (token_hash, local_id, created_at, auth_time, sign_in_provider)
            SELECT 'token' || printf('%08x', (i * 97 + 13) % 4294967291) || \(scattered), 'seed' || \(scattered), 1700000000000, 1700000000, 'phone' FROM n
            """)
        try db.execute(
            """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(accounts * 5))
            INSERT INTO audit_events (at, kind, uid, ip, detail)
            SELECT 1700000000000 + i, 'SIGN_IN', 'seed' || printf('%08x%08x', ((i % \(accounts) + 1) * 2654435761) % 4294967291,
                ((i % \(accounts) + 1) * 40503 + 7) % 4294967291), '192.0.2.1', '{"method":"phone"}' FROM n
            """)
        // As migration 24 leaves an existing log: every event in the account index.
        try db.execute("INSERT INTO audit_uid_events (id, uid) SELECT id, uid FROM audit_events")
        try db.execute("UPDATE audit_uid_progress SET indexed_through = (SELECT MAX(id) FROM audit_events)")
        try db.execute("COMMIT")
        _ = try db.querySync("PRAGMA wal_checkpoint(TRUNCATE)", [])
    }
}
