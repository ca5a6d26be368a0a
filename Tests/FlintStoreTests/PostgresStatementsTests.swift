import FlintCore
import FlintTesting
import Foundation
import Logging
import NIOSSL
import PostgresNIO
import Testing

@testable import FlintStore

/// Which statements a PostgreSQL connection prepares, and that preparing them changes no answer.
@Suite("PostgreSQL prepared statements")
struct PostgresStatementsTests {
    @Test("queries and data changes get a name per text and kinds of values; anything else, long lists and the overflow do not")
    func naming() {
        let statements = PostgresStatements(capacity: 3)
        let byPhone = statements.statement(.read("SELECT local_id FROM users WHERE phone_number = ?", [.text("+1")], from: .users))
        #expect(byPhone.sql == "SELECT local_id FROM users WHERE phone_number = $1")
        #expect(byPhone.name != nil)
        #expect(statements.statement(.read("SELECT local_id FROM users WHERE phone_number = ?", [.text("+2")], from: .users)).name == byPhone.name)
        // A NULL is another kind of value: PostgreSQL infers its type, and a prepared statement keeps its first types.
        let withNull = statements.statement(.write("UPDATE users SET email = ? WHERE local_id = ?", [.null, .text("u")], into: .users))
        let withText = statements.statement(.write("UPDATE users SET email = ? WHERE local_id = ?", [.text("a@b.c"), .text("u")], into: .users))
        #expect(withNull.name != nil && withText.name != nil && withNull.name != withText.name)
        #expect(statements.statement(.command("BEGIN")).name == nil)
        #expect(statements.statement(.command("CREATE INDEX x ON users (email)")).name == nil)
        let many = Array(repeating: SQLValue.text("u"), count: 40)
        let list = statements.statement(
            .read("SELECT local_id FROM users WHERE local_id IN (\(Array(repeating: "?", count: 40).joined(separator: ", ")))", many, from: .users))
        #expect(list.name == nil && list.sql.hasSuffix("$40)"))
        // The capacity (3) is reached: further texts run unnamed, the named ones keep their names.
        #expect(statements.statement(.write("DELETE FROM users WHERE local_id = ?", [.text("u")], into: .users)).name == nil)
        #expect(statements.statement(.read("SELECT local_id FROM users WHERE phone_number = ?", [.text("+3")], from: .users)).name == byPhone.name)
        #expect(PostgresStatements(capacity: 0).statement(.read("SELECT 1")).name == nil)
        #expect(PostgresStatements.numbered("SELECT '?' AS q, ? AS a").sql == "SELECT '?' AS q, $1 AS a")
    }

    @Test("writes carried by one statement are named when each is short, however many values they have together")
    func carried() {
        let statements = PostgresStatements(capacity: 10)
        let wide = { (first: SQLValue) in
            SQLStatement.write(
                "INSERT INTO users (a) VALUES (\(Array(repeating: "?", count: 20).joined(separator: ", ")))",
                [first] + Array(repeating: .text("u"), count: 19), into: .users)
        }
        let audit = { (last: SQLValue) in
            SQLStatement.write(
                "INSERT INTO audit_events (a) VALUES (\(Array(repeating: "?", count: 20).joined(separator: ", ")))",
                Array(repeating: .text("e"), count: 19) + [last], into: .auditEvents)
        }
        let withText = audit(.text("x")).carrying([wide(.text("u"))])
        #expect(withText.binds.count == 40 && withText.widestPart == 20)
        let named = statements.statement(withText)
        #expect(named.name != nil && named.sql.contains("$40"))
        #expect(statements.statement(audit(.text("y")).carrying([wide(.text("v"))])).name == named.name)
        // The 40th value's kind counts as the first's does.
        let withNull = statements.statement(audit(.null).carrying([wide(.text("u"))]))
        #expect(withNull.name != nil && withNull.name != named.name)
        #expect(statements.statement(audit(.text("x")).carrying([wide(.null)])).name != named.name)
    }

    @Test("a retired statement is named anew, so a name spoiled on a connection is not used again")
    func retiring() {
        let statements = PostgresStatements(capacity: 10)
        let first = statements.statement(.read("SELECT 1 FROM users WHERE local_id = ?", [.text("u")], from: .users))
        statements.retire(.read("SELECT 1 FROM users WHERE local_id = ?", [.text("v")], from: .users))
        let second = statements.statement(.read("SELECT 1 FROM users WHERE local_id = ?", [.text("u")], from: .users))
        #expect(first.name != nil && second.name != nil && first.name != second.name)
    }

    @Test("on a server: a NULL first and an integer next, into an INTEGER column, both work; an aborted transaction spoils nothing")
    func onAServer() async throws {
        guard Engine.all.contains(.postgres) else { return }
        let url = try await freshPostgresDatabase(.empty)
        let location = try #require(PostgresStore.Location(url: url))
        let client = testPostgresClient(location)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            try await client.withConnection { connection in
                let db = PostgresExecutor(connection: connection, statements: PostgresStatements(capacity: 100), logger: testLogger())
                try await db.run(.command("CREATE TABLE t (id TEXT PRIMARY KEY, n INTEGER, flag BOOLEAN)"))
                let t = SQLTable(rawValue: "t")
                let insert = { (binds: [SQLValue]) in SQLStatement.write("INSERT INTO t (id, n, flag) VALUES (?, ?, ?)", binds, into: t) }
                try await db.run(insert([.text("a"), .null, .null]))
                try await db.run(insert([.text("b"), .integer(7), .bool(true)]))
                try await db.run(insert([.text("c"), .null, .bool(false)]))
                let rows = try await db.query(.read("SELECT id, n, flag FROM t WHERE id <> ? ORDER BY id", [.text("x")], from: t))
                #expect(try rows.map { try $0.string("id") } == ["a", "b", "c"])
                #expect(try rows[1].int64("n") == 7 && rows[1].bool("flag"))

                // A transaction aborted by a failed statement: the next statement is not sent (so it is not first
                // prepared where it must fail), and after the rollback it runs, prepared, on the same connection.
                let tx = PostgresTransaction(db)
                _ = try await tx.query(.write("UPDATE t SET n = n + 1 WHERE id = ? RETURNING id", [.text("b")], into: t))
                await #expect(throws: (any Error).self) { try await tx.run(.write("INSERT INTO t (id) VALUES (?)", [.text("b")], into: t)) }
                let fresh = SQLStatement.read("SELECT n FROM t WHERE id = ? AND n IS NOT NULL", [.text("b")], from: t)
                await #expect(throws: (any Error).self) { _ = try await tx.query(fresh) }
                try await tx.rollback()
                #expect(try await db.query(fresh).first?.int64("n") == 7)
                #expect(try await db.query(fresh).first?.int64("n") == 7)
            }
            group.cancelAll()
        }
    }

    @Test("a server's pool opens its connections at start and keeps them alive with its own sweep")
    func keptPool() async throws {
        guard Engine.all.contains(.postgres) else { return }
        let url = try await freshPostgresDatabase()
        let location = try #require(PostgresStore.Location(url: url))
        let store = try await PostgresStore(
            location: location, maximumConnections: 4, keepingConnections: true, keepAlive: .milliseconds(100), startTimeout: postgresTestStartLimit,
            logger: testLogger())
        // Another client watches the database's backends: the kept ones (3 of 4) are open without any demand, and
        // each has run the sweep's `SELECT 1` (pg_stat_activity shows an idle backend's last statement).
        let watcher = testPostgresClient(location)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await watcher.run() }
            // What the server's backends last ran is the PostgreSQL server's state: polled every 100 ms.
            var pinged: Int64 = 0
            for _ in 0..<50 where pinged < 3 {
                try await Task.sleep(for: .milliseconds(100))
                pinged = try await watcher.withConnection { connection in
                    let db = PostgresExecutor(connection: connection, statements: PostgresStatements(capacity: 0), logger: testLogger())
                    return try await db.query(
                        .read(
                            "SELECT COUNT(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND query = ?",
                            [.text("SELECT 1")])
                    ).first?.int64("n") ?? 0
                }
            }
            #expect(pinged >= 3)
            group.cancelAll()
        }
        try await store.close()
    }
}
