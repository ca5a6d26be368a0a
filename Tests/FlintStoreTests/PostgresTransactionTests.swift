import FlintCore
import FlintTesting
import Synchronization
import Testing

@testable import FlintStore

/// What a PostgreSQL write transaction sends, statement by statement (each one a round trip), without a server.
@Suite("PostgreSQL transactions in few round trips")
struct PostgresTransactionTests {
    /// Records each statement it is sent; fails the ones containing `fail`.
    final class Recorder: SQLExecutor {
        let dialect = SQLDialect.postgresql
        let sent = Mutex<[(sql: String, binds: [SQLValue])]>([])
        /// The rows each statement answers (none by default).
        let answer: @Sendable (String) -> [SQLRow]

        init(answer: @escaping @Sendable (String) -> [SQLRow] = { _ in [] }) { self.answer = answer }

        func query(_ statement: SQLStatement) async throws -> [SQLRow] {
            sent.withLock { $0.append((statement.sql, statement.binds)) }
            if statement.tables.contains(Self.failing) { throw SQLStoreError.engine(code: 1, message: "refused") }
            return answer(statement.sql)
        }

        /// The table whose statements fail.
        static let failing = SQLTable(rawValue: "fail_table")

        var statements: [String] { sent.withLock { $0.map(\.sql) } }
        var binds: [[SQLValue]] { sent.withLock { $0.map(\.binds) } }
    }

    @Test("reads and deferred writes only: the reads alone, then the writes as one statement that commits itself")
    func readsThenDeferred() async throws {
        let recorder = Recorder()
        let tx = PostgresTransaction(recorder)
        _ = try await tx.query(.read("SELECT hits FROM rate_counters WHERE counter_key = ?", [.text("k")], from: .rateCounters))
        _ = try await tx.query(.read("  select local_id FROM users WHERE phone_number = ?", [.text("+1")], from: .users))
        try await tx.deferred(.write("UPDATE users SET last_login_at = ? WHERE local_id = ?", [.integer(5), .text("u")], into: .users))
        try await tx.deferred(.write("INSERT INTO refresh_tokens (token_hash) VALUES (?)", [.text("h")], into: .refreshTokens))
        try await tx.deferred(.write("INSERT INTO audit_events (kind) VALUES (?)", [.text("SIGN_IN")], into: .auditEvents))
        try await tx.commit()
        #expect(recorder.statements.count == 3)
        #expect(!recorder.statements.contains("BEGIN") && !recorder.statements.contains("COMMIT"))
        #expect(
            recorder.statements.last
                == "WITH flint_deferred_0 AS (UPDATE users SET last_login_at = ? WHERE local_id = ?), "
                + "flint_deferred_1 AS (INSERT INTO refresh_tokens (token_hash) VALUES (?)) INSERT INTO audit_events (kind) VALUES (?)")
        #expect(recorder.binds.last == [.integer(5), .text("u"), .text("h"), .text("SIGN_IN")])
    }

    @Test("a write or a locking read begins the transaction; deferred writes go first, inside it, before what follows")
    func writesBegin() async throws {
        let recorder = Recorder()
        let tx = PostgresTransaction(recorder)
        _ = try await tx.query(.read("SELECT 1"))
        try await tx.deferred(.write("INSERT INTO audit_events (kind) VALUES (?)", [.text("A")], into: .auditEvents))
        _ = try await tx.query(.read("SELECT COUNT(*) AS n FROM users u JOIN audit_events a ON a.uid = u.local_id", from: .users, .auditEvents))
        _ = try await tx.query(
            .write("UPDATE code_sessions SET consumed_at = ? WHERE id = ? RETURNING id", [.integer(1), .text("s")], into: .codeSessions))
        try await tx.commit()
        #expect(
            recorder.statements == [
                "SELECT 1", "BEGIN", "INSERT INTO audit_events (kind) VALUES (?)",
                "SELECT COUNT(*) AS n FROM users u JOIN audit_events a ON a.uid = u.local_id",
                "UPDATE code_sessions SET consumed_at = ? WHERE id = ? RETURNING id", "COMMIT",
            ])
        let locking = Recorder()
        let second = PostgresTransaction(locking)
        _ = try await second.query(
            .lockingRead("SELECT role FROM console_operators WHERE role = ? FOR UPDATE", [.text("admin")], from: .consoleOperators))
        try await second.commit()
        #expect(locking.statements.first == "BEGIN" && locking.statements.last == "COMMIT")
    }

    @Test("a read of tables no waiting write touches neither sends the writes nor begins; one that names them does both")
    func readsBesideDeferredWrites() async throws {
        let recorder = Recorder()
        let tx = PostgresTransaction(recorder)
        try await tx.deferred(.write("UPDATE users SET last_login_at = ? WHERE local_id = ?", [.integer(5), .text("u")], into: .users))
        try await tx.deferred(.write("INSERT INTO audit_events (kind) VALUES (?)", [.text("SIGN_IN")], into: .auditEvents))
        _ = try await tx.query(.read("SELECT provider_id FROM federated_identities WHERE local_id = ?", [.text("u")], from: .federatedIdentities))
        try await tx.commit()
        #expect(
            recorder.statements == [
                "SELECT provider_id FROM federated_identities WHERE local_id = ?",
                "WITH flint_deferred_0 AS (UPDATE users SET last_login_at = ? WHERE local_id = ?) INSERT INTO audit_events (kind) VALUES (?)",
            ])

        let joined = Recorder()
        let second = PostgresTransaction(joined)
        try await second.deferred(.write("UPDATE users SET disabled = ? WHERE local_id = ?", [.bool(true), .text("u")], into: .users))
        _ = try await second.query(
            .read("SELECT f.provider_id FROM federated_identities f, USERS u WHERE u.local_id = f.local_id", from: .federatedIdentities, .users))
        try await second.commit()
        #expect(joined.statements.first == "BEGIN")
        #expect(joined.statements.last == "COMMIT")
        #expect(joined.statements.count == 4)
    }

    @Test("a write of other tables carries the waiting writes as WITH clauses of its own statement; one of theirs does not")
    func writesCarryDeferred() async throws {
        let recorder = Recorder()
        let tx = PostgresTransaction(recorder)
        try await tx.deferred(.write("INSERT INTO code_sessions (id) VALUES (?)", [.text("s")], into: .codeSessions))
        try await tx.deferred(.write("INSERT INTO outbox (body) VALUES (?)", [.text("b")], into: .outbox))
        _ = try await tx.query(.write("INSERT INTO rate_counters (counter_key) VALUES (?) RETURNING hits", [.text("k")], into: .rateCounters))
        try await tx.commit()
        #expect(
            recorder.statements == [
                "BEGIN",
                "WITH flint_deferred_0 AS (INSERT INTO code_sessions (id) VALUES (?)), flint_deferred_1 AS (INSERT INTO outbox (body) VALUES (?)) "
                    + "INSERT INTO rate_counters (counter_key) VALUES (?) RETURNING hits",
                "COMMIT",
            ])
        #expect(recorder.binds[1] == [.text("s"), .text("b"), .text("k")])

        let own = Recorder()
        let second = PostgresTransaction(own)
        try await second.deferred(.write("INSERT INTO outbox (body) VALUES (?)", [.text("b")], into: .outbox))
        _ = try await second.query(.write("UPDATE outbox SET status = ? WHERE seq = ? RETURNING seq", [.text("sent"), .integer(1)], into: .outbox))
        _ = try await second.query(
            SQLStatement(with: ["x AS (SELECT 1)"], "UPDATE users SET disabled = TRUE RETURNING local_id", [], tables: [], effect: .write(.users)))
        try await second.commit()
        #expect(
            own.statements == [
                "BEGIN", "INSERT INTO outbox (body) VALUES (?)", "UPDATE outbox SET status = ? WHERE seq = ? RETURNING seq",
                "WITH x AS (SELECT 1) UPDATE users SET disabled = TRUE RETURNING local_id", "COMMIT",
            ])
    }

    @Test("two deferred writes to one table never share a statement")
    func oneWritePerTable() async throws {
        let recorder = Recorder()
        let tx = PostgresTransaction(recorder)
        try await tx.deferred(.write("INSERT INTO audit_events (kind) VALUES (?)", [.text("A")], into: .auditEvents))
        try await tx.deferred(.write("INSERT INTO audit_events (kind) VALUES (?)", [.text("B")], into: .auditEvents))
        try await tx.commit()
        #expect(
            recorder.statements == [
                "BEGIN", "INSERT INTO audit_events (kind) VALUES (?)", "INSERT INTO audit_events (kind) VALUES (?)", "COMMIT",
            ])
    }

    @Test("a failed statement fails the commit even when its caller caught it; rollback only after a BEGIN")
    func failureKept() async throws {
        let recorder = Recorder()
        let tx = PostgresTransaction(recorder)
        _ = try await tx.query(.write("UPDATE users SET disabled = TRUE WHERE local_id = ?", [.text("u")], into: .users))
        try await tx.deferred(.write("INSERT INTO fail_table (kind) VALUES (?)", [.text("A")], into: Recorder.failing))
        await #expect(throws: SQLStoreError.self) { _ = try await tx.query(.read("SELECT kind FROM fail_table", from: Recorder.failing)) }
        await #expect(throws: SQLStoreError.self) { try await tx.commit() }
        try await tx.rollback()
        #expect(recorder.statements.last == "ROLLBACK" && !recorder.statements.contains("COMMIT"))
        let idle = Recorder()
        let readOnly = PostgresTransaction(idle)
        _ = try await readOnly.query(.read("SELECT 1"))
        try await readOnly.rollback()
        #expect(idle.statements == ["SELECT 1"])
    }

    @Test("a phone sign-in's spend reads the proven number's account and counters in its own statement")
    func spendReadingNumber() async throws {
        // The spent session beside no account (empty account columns) and one counter's hits.
        let columns = SQLColumns(
            [
                "cs_tenant_id", "cs_id", "cs_phone_number", "cs_purpose", "cs_code_hash", "cs_created_at", "cs_expires_at", "cs_attempts",
                "cs_consumed_at",
            ]
                + ["local_id", "fi_provider_id", "hits_0", "hits_1"])
        let row = SQLRow(
            columns: columns,
            cells: [.text(""), .text("s1"), .text("+16505553434"), .text("signIn"), .text("aa"), .integer(1), .integer(9), .integer(0), .integer(5)]
                + [.null, .null, .integer(3), .null])
        let recorder = Recorder { $0.hasPrefix("WITH spent AS (UPDATE code_sessions") ? [row] : [] }
        let tx = PostgresTransaction(recorder)
        let read = try await SQLQueries(db: tx).spendPhoneSignInCode(
            sessionID: "s1", codeHash: "aa", now: 5, maxAttempts: 5,
            counters: [
                NumberCounter(tenant: .default, .wrongCodes(per: .hour), windowStart: 60),
                NumberCounter(tenant: .default, .wrongCodes(per: .day), windowStart: 0),
            ])
        try await tx.commit()
        guard case .spent(let session) = read.outcome else { Issue.record("expected spent, got \(read.outcome)"); return }
        #expect(session.id == "s1" && session.phoneNumber == "+16505553434" && session.consumedAt == 5)
        #expect(read.owner == nil && read.hits == [3, 0])
        #expect(recorder.statements.count == 3)
        #expect(recorder.statements.first == "BEGIN" && recorder.statements.last == "COMMIT")
        let statement = recorder.statements[1]
        #expect(statement.contains("JOIN users u ON u.tenant_id = spent.tenant_id AND u.phone_number = spent.phone_number"))
        #expect(statement.contains("counter_key = ? || spent.phone_number AND window_start = ?"))
        #expect(
            recorder.binds[1] == [
                .integer(5), .text("s1"), .integer(5), .integer(5), .text("aa"), .text("sms-wrong:h:"), .integer(60), .text("sms-wrong:d:"),
                .integer(0),
            ])
    }

    @Test("a closing statement in a transaction not begun carries the deferred writes as one statement; nothing may follow it")
    func closingStatement() async throws {
        let recorder = Recorder()
        let tx = PostgresTransaction(recorder)
        _ = try await tx.query(.read("SELECT id FROM code_sessions WHERE live_key = ?", [.text("k")], from: .codeSessions))
        try await tx.deferred(.write("INSERT INTO code_sessions (id) VALUES (?)", [.text("s")], into: .codeSessions))
        try await tx.deferred(.write("INSERT INTO outbox (session_id) VALUES (?)", [.text("s")], into: .outbox))
        _ = try await tx.query(
            SQLStatement(
                with: ["flint_caps (k) AS (VALUES (?))"], "INSERT INTO rate_counters (counter_key) SELECT k FROM flint_caps", [.text("c")],
                tables: [],
                effect: .write(.rateCounters)
            ).closing)
        await #expect(throws: SQLStoreError.self) { _ = try await tx.query(.read("SELECT 1")) }
        await #expect(throws: SQLStoreError.self) {
            try await tx.deferred(.write("INSERT INTO audit_events (kind) VALUES (?)", [.text("A")], into: .auditEvents))
        }
        try await tx.commit()
        #expect(
            recorder.statements == [
                "SELECT id FROM code_sessions WHERE live_key = ?",
                "WITH flint_deferred_0 AS (INSERT INTO code_sessions (id) VALUES (?)), flint_deferred_1 AS (INSERT INTO outbox (session_id) VALUES (?)), "
                    + "flint_caps (k) AS (VALUES (?)) INSERT INTO rate_counters (counter_key) SELECT k FROM flint_caps",
            ])
        #expect(recorder.binds.last == [.text("s"), .text("s"), .text("c")])

        // Once begun, it runs inside the transaction, after the waiting writes, before `COMMIT`.
        let begun = Recorder()
        let second = PostgresTransaction(begun)
        _ = try await second.query(.write("UPDATE code_sessions SET live_key = NULL WHERE id = ?", [.text("old")], into: .codeSessions))
        try await second.deferred(.write("INSERT INTO outbox (session_id) VALUES (?)", [.text("s")], into: .outbox))
        _ = try await second.query(
            SQLStatement(
                with: ["flint_caps (k) AS (VALUES (?))"], "SELECT k FROM flint_caps", [.text("c")], tables: [], effect: .write(.rateCounters)
            )
            .closing)
        try await second.commit()
        #expect(
            begun.statements == [
                "BEGIN", "UPDATE code_sessions SET live_key = NULL WHERE id = ?", "INSERT INTO outbox (session_id) VALUES (?)",
                "WITH flint_caps (k) AS (VALUES (?)) SELECT k FROM flint_caps", "COMMIT",
            ])
    }

    @Test("what a statement declares decides, not its text: a read declaring none of the waiting writes' tables runs first")
    func declarationsDecide() async throws {
        let recorder = Recorder()
        let tx = PostgresTransaction(recorder)
        try await tx.deferred(.write("UPDATE users SET disabled = ? WHERE local_id = ?", [.bool(true), .text("u")], into: .users))
        // The text names `users` in a string only; the statement reads `outbox`.
        _ = try await tx.query(.read("SELECT seq FROM outbox WHERE body = 'users'", from: .outbox))
        // A write declared with a `WITH` clause neither carries nor is deferred, whatever its body's verb.
        try await tx.deferred(
            SQLStatement(with: ["x AS (SELECT 1)"], "INSERT INTO stats (n) SELECT 1 FROM x", [], tables: [], effect: .write(.stats)))
        try await tx.commit()
        #expect(
            recorder.statements == [
                "SELECT seq FROM outbox WHERE body = 'users'", "BEGIN", "UPDATE users SET disabled = ? WHERE local_id = ?",
                "WITH x AS (SELECT 1) INSERT INTO stats (n) SELECT 1 FROM x", "COMMIT",
            ])
    }

    @Test("a statement's declarations: the written table among its tables, plain writes only as WITH clauses, closing kept")
    func statements() {
        let insert = SQLStatement.write("INSERT INTO audit_events (a) VALUES (?)", [.text("a")], into: .auditEvents, reading: .users)
        #expect(insert.tables == [.auditEvents, .users] && insert.plainWriteTarget == .auditEvents)
        #expect(insert.names(any: [.users]) && !insert.names(any: [.outbox]))
        let compound = SQLStatement(with: ["x AS (SELECT 1)"], "INSERT INTO t SELECT * FROM x", [], tables: [], effect: .write(.stats))
        #expect(compound.plainWriteTarget == nil && compound.sql == "WITH x AS (SELECT 1) INSERT INTO t SELECT * FROM x")
        #expect(SQLStatement.read("SELECT a FROM users", from: .users).plainWriteTarget == nil)
        let carried = compound.closing.carrying([insert])
        #expect(carried.closes && carried.tables == [.stats, .auditEvents, .users] && carried.binds == [.text("a")])
        #expect(carried.sql == "WITH flint_deferred_0 AS (INSERT INTO audit_events (a) VALUES (?)), x AS (SELECT 1) INSERT INTO t SELECT * FROM x")
    }
}
