import FlintCore
import FlintTesting
import Foundation
import NIOSSL
import PostgresNIO
import Testing

@testable import FlintStore

@Suite("Migrations: stored values keep their meaning")
struct MigrationTests {
    /// A database at schema version 6 holding one refresh token created at `createdAtSeconds` (the old unit).
    static func version6Database(_ engine: Engine, createdAtSeconds: Int64) async throws -> String {
        let insert = """
            INSERT INTO refresh_tokens (token_hash, local_id, created_at, auth_time, sign_in_provider) VALUES ('t', 'u', ?, ?, 'phone')
            """
        return try await database(engine, through: 6, [(insert, [.integer(createdAtSeconds), .integer(createdAtSeconds)])])
    }

    /// The versions a fresh database gets through `version`: every migration's up to it.
    static func versions(through version: Int) -> [Int] {
        Migrations.all.map(\.version).filter { $0 <= version }
    }

    /// A database brought to schema `version`, then given `statements`.
    static func database(_ engine: Engine, through version: Int, _ statements: [(String, [SQLValue])]) async throws -> String {
        switch engine {
        case .sqlite:
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("flint-v\(version)-\(UUID().uuidString).sqlite").path
            let db = try SQLiteDatabase(path: file)
            let applied = try await Migrations.run(on: db, through: version) { try await $0() }
            #expect(applied == Self.versions(through: version))
            for (sql, binds) in statements { try await db.run(.command(sql, binds)) }
            db.close()
            return file
        case .postgres:
            let url = try await freshPostgresDatabase(.empty)
            guard let location = PostgresStore.Location(url: url) else { throw TestSetupError(message: "bad database URL") }
            let client = testPostgresClient(location)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await client.run() }
                try await client.withConnection { connection in
                    let db = PostgresExecutor(connection: connection, statements: PostgresStatements(capacity: 0), logger: testLogger())
                    let applied = try await Migrations.run(on: db, through: version) { try await $0() }
                    #expect(applied == Self.versions(through: version))
                    for (sql, binds) in statements { try await db.run(.command(sql, binds)) }
                }
                group.cancelAll()
            }
            return url
        }
    }

    /// SQLite's `EXPLAIN QUERY PLAN` of `sql` (every placeholder bound to a text), its steps joined by `; `.
    static func queryPlan(_ sql: String, on db: SQLiteDatabase) async throws -> String {
        let binds = Array(repeating: SQLValue.text("x"), count: sql.filter { $0 == "?" }.count)
        return try await db.query(.read("EXPLAIN QUERY PLAN " + sql, binds)).map { try $0.string("detail") }.joined(separator: "; ")
    }

    @Test("version 7 turns refresh tokens' created_at from seconds into milliseconds, and nothing else", arguments: Engine.all)
    func refreshTokenCreatedAtInMilliseconds(engine: Engine) async throws {
        let location = try await Self.version6Database(engine, createdAtSeconds: 1_800_000_000)
        let (store, _) = try await makeStore(engine, location: location)
        let token = try await store.read { try await $0.refreshToken(hash: "t") }
        #expect(token?.createdAt == 1_800_000_000_000)
        #expect(token?.authTime == Instant(secondsSince1970: 1_800_000_000), "auth_time stays seconds, as the ID token's claim")
        try await store.close()
    }

    @Test("version 14 keeps the audit log's events and their sequence numbers; new events follow them", arguments: Engine.all)
    func auditLogLayout(engine: Engine) async throws {
        let insert = "INSERT INTO audit_events (at, kind, uid, detail) VALUES (?, ?, ?, '{}')"
        let rows: [(String, [SQLValue])] = [
            (insert, [.integer(1_000), .text("SIGN_IN"), .text("u1")]), (insert, [.integer(2_000), .text("LOCKOUT"), .null]),
            (insert, [.integer(3_000), .text("SIGN_IN"), .text("u2")]),
            (
                "INSERT INTO outbox (channel, recipient, body, locale, created_at, code, status) VALUES ('sms', '+15550100', 'b', 'en', 5, '123456', 'sent')",
                []
            ),
        ]
        let location = try await Self.database(engine, through: 13, rows)
        let (store, _) = try await makeStore(engine, location: location)
        try await store.write { tx in try await tx.appendAuditEvent(AuditEvent(at: 4_000, kind: .lockout, uid: nil, detail: [:])) }
        let events = try await store.read { try await $0.auditEvents(AuditQuery()) }
        #expect(events.map(\.id) == [4, 3, 2, 1])
        #expect(events.map(\.at) == [4_000, 3_000, 2_000, 1_000])
        #expect(try await store.read { try await $0.auditEvents(AuditQuery(uid: "u1")) }.map(\.id) == [1])
        #expect(try await store.read { try await $0.auditEvents(AuditQuery(kind: .lockout)) }.map(\.id) == [4, 2])
        let outbox = try await store.read { try await $0.outbox(OutboxFilter(), before: nil, limit: 10) }
        #expect(outbox.map(\.recipient) == ["+15550100"] && outbox.first?.code == "123456")
        try await store.close()
    }

    @Test("version 24 keeps every audit event and indexes those with an account, caught up to the newest", arguments: Engine.all)
    func auditAccountIndex(engine: Engine) async throws {
        let insert = "INSERT INTO audit_events (at, kind, uid, detail) VALUES (?, ?, ?, '{}')"
        let rows: [(String, [SQLValue])] = [
            (insert, [.integer(1_000), .text("SIGN_IN"), .text("u1")]), (insert, [.integer(2_000), .text("LOCKOUT"), .null]),
            (insert, [.integer(3_000), .text("SIGN_IN"), .text("u2")]), (insert, [.integer(4_000), .text("PASSWORD_CHANGED"), .text("u1")]),
        ]
        let location = try await Self.database(engine, through: 23, rows)
        let (store, _) = try await makeStore(engine, location: location)
        #expect(try await store.read { try await $0.auditEvents(AuditQuery()) }.map(\.id) == [4, 3, 2, 1])
        #expect(try await store.catchUpAuditIndex() == 0, "the migration indexed every event")
        try await store.write { tx in try await tx.appendAuditEvent(AuditEvent(at: 5_000, kind: .signIn, uid: "u1", detail: [:])) }
        #expect(try await store.read { try await $0.auditEvents(AuditQuery(uid: "u1")) }.map(\.id) == [5, 4, 1])
        #expect(try await store.catchUpAuditIndex() == 1)
        #expect(try await store.read { try await $0.auditEvents(AuditQuery(uid: "u1", limit: 2)) }.map(\.id) == [5, 4])
        #expect(try await store.read { try await $0.auditEvents(AuditQuery(uid: "u2")) }.map(\.id) == [3])
        try await store.close()
    }

    @Test("version 32 gives every audit event the tenant its detail names and indexes those of tenants, caught up as before", arguments: Engine.all)
    func auditTenantIndex(engine: Engine) async throws {
        let insert = "INSERT INTO audit_events (at, kind, uid, detail) VALUES (?, ?, ?, ?)"
        let rows: [(String, [SQLValue])] = [
            (insert, [.integer(1_000), .text("SIGN_IN"), .text("u1"), .text(#"{"method":"password","tenantId":"acme-a1b2c"}"#)]),
            (insert, [.integer(2_000), .text("LOCKOUT"), .null, .text(#"{"limit":"send"}"#)]),
            (insert, [.integer(3_000), .text("SIGN_IN"), .text("u2"), .text(#"{"tenantId":"globex-d3e4f"}"#)]),
            (insert, [.integer(4_000), .text("ADMIN_ACTION"), .text("u1"), .text(#"{"action":"disable","tenantId":"acme-a1b2c"}"#)]),
            (insert, [.integer(5_000), .text("CONFIG_CHANGED"), .null, .text(#"{"note":"tenantId"}"#)]),
            // The account index had caught up with the log before the upgrade.
            ("INSERT INTO audit_uid_events (id, uid) SELECT id, uid FROM audit_events WHERE uid IS NOT NULL", []),
            ("UPDATE audit_uid_progress SET indexed_through = 5", []),
        ]
        let location = try await Self.database(engine, through: 31, rows)
        let (store, _) = try await makeStore(engine, location: location)
        let acme = TenantID(rawValue: "acme-a1b2c")
        #expect(try await store.read { try await $0.auditEvents(AuditQuery(tenant: acme)) }.map(\.id) == [4, 1], "from the tenant index")
        #expect(try await store.read { try await $0.auditEvents(AuditQuery(tenant: .default)) }.map(\.id) == [5, 2])
        #expect(try await store.read { try await $0.auditEvents(AuditQuery(uid: "u2", tenant: TenantID(rawValue: "globex-d3e4f"))) }.map(\.id) == [3])
        #expect(try await store.catchUpAuditIndex() == 0, "the migration indexed every event")
        try await store.write { tx in
            try await tx.appendAuditEvent(AuditEvent(at: 6_000, kind: .signIn, uid: "u1", detail: ["tenantId": "acme-a1b2c"]))
        }
        #expect(try await store.read { try await $0.auditEvents(AuditQuery(tenant: acme)) }.map(\.id) == [6, 4, 1])
        #expect(try await store.catchUpAuditIndex() == 1)
        #expect(try await store.read { try await $0.auditEvents(AuditQuery(tenant: acme, limit: 2)) }.map(\.id) == [6, 4])
        try await store.close()
    }

    @Test("version 17 has the keys made before it signing from their creation, unrevoked", arguments: Engine.all)
    func signingKeysActivateAtCreation(engine: Engine) async throws {
        let insert = "INSERT INTO signing_keys (kid, private_key_pem, certificate_pem, created_at, retired_at) VALUES (?, 'p', 'c', ?, ?)"
        let rows: [(String, [SQLValue])] = [
            (insert, [.text("old"), .integer(1_000), .integer(2_000)]), (insert, [.text("current"), .integer(2_000), .null]),
        ]
        let location = try await Self.database(engine, through: 16, rows)
        let (store, _) = try await makeStore(engine, location: location)
        let keys = try await store.read { try await $0.signingKeys() }
        #expect(keys.map(\.kid) == ["current", "old"])
        #expect(keys.map(\.activatesAt) == [2_000, 1_000])
        #expect(keys.map(\.retiredAt) == [nil, 2_000])
        #expect(keys.map(\.revokedAt) == [nil, nil])
        try await store.close()
    }

    @Test("SQLite answers a listing by a rarer kind from the partial index; appending a sign-in writes no index of the log")
    func auditIndexesApply() async throws {
        let location = try await Self.database(.sqlite, through: Migrations.latest, [])
        let db = try SQLiteDatabase(path: location)
        defer { db.close() }
        func plan(_ sql: String) async throws -> String { try await Self.queryPlan(sql, on: db) }
        let byKind = try await plan(
            "SELECT id FROM audit_events WHERE kind = ? AND \(AuditLayout.kindIndexCondition) ORDER BY id DESC LIMIT 10")
        #expect(byKind.contains("audit_events_kind"), "\(byKind)")
        let indexes = try await db.query(.read("SELECT name FROM sqlite_master WHERE tbl_name = 'audit_events' AND type = 'index'"))
            .map { try $0.string("name") }.sorted()
        #expect(indexes == ["audit_events_kind"], "a SIGN_IN event is in no index: only the table's last page is written")
        let tables = try await db.query(.read("SELECT sql FROM sqlite_master WHERE type = 'table' AND sql LIKE '%AUTOINCREMENT%'"))
        #expect(tables.isEmpty, "no table costs a sqlite_sequence write per commit")
        let outboxIndexes = try await db.query(.read("SELECT name FROM sqlite_master WHERE tbl_name = 'outbox' AND type = 'index'"))
            .map { try $0.string("name") }.sorted()
        #expect(outboxIndexes == ["outbox_recipient", "outbox_session_id", "outbox_status"])
    }
}
