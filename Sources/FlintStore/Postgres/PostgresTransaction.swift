import PostgresNIO
import Synchronization

/// One write transaction on a PostgreSQL connection, sent in as few round trips as its statements allow: each
/// statement is one round trip to the server, and a sign-in is a handful of statements (issue 17).
///
/// - `BEGIN` waits for the first statement that writes or locks. Reads before it run on their own, which under READ
///   COMMITTED (each statement takes its own snapshot, inside a transaction or not) sees exactly what it would have
///   seen inside, as no write of this transaction exists yet; a `SELECT … FOR UPDATE` begins the transaction first,
///   so its lock lasts until the commit.
/// - Deferred statements (``SQLExecutor/deferred(_:_:)``: writes whose result the flow does not read) wait and are
///   sent with the next statement's turn: several go as one statement, the deferred ones as data-modifying `WITH`
///   clauses, at most one per table, so no row is written twice by one statement. Any other statement sends the
///   waiting ones first, so it sees their effects, as without deferral.
/// - At the commit, a transaction whose only writes are deferred sends them as one statement, which commits by
///   itself: no `BEGIN`, no `COMMIT`. Otherwise they go before `COMMIT`.
/// - A statement that failed aborts the transaction on the server (later ones fail, `COMMIT` rolls back): the
///   failure is kept and thrown by ``commit()`` too, so a caller that caught it cannot commit nothing by mistake.
final class PostgresTransaction: SQLExecutor {
    let dialect = SQLDialect.postgresql
    private let connection: any SQLExecutor
    private let state = Mutex(State())

    private struct State {
        var begun = false
        var deferred: [(table: String, sql: String, binds: [SQLValue])] = []
        var failure: (any Error)?
    }

    /// A transaction on `connection` (a ``PostgresExecutor``; tests record what it is sent).
    init(_ connection: any SQLExecutor) { self.connection = connection }

    func query(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow] {
        // Deferred writes go first, inside the transaction: what follows belongs to the same one.
        if state.withLock({ !$0.deferred.isEmpty }) || !Self.isPlainRead(sql) { try await begin() }
        try await flush()
        return try await send(sql, binds)
    }

    func deferred(_ sql: String, _ binds: [SQLValue]) async throws {
        guard let table = Self.target(of: sql) else { return try await run(sql, binds) }
        if state.withLock({ state in state.deferred.contains { $0.table == table } }) {
            try await begin()
            try await flush()
        }
        state.withLock { $0.deferred.append((table, sql, binds)) }
    }

    /// Sends what waits and commits; a transaction that wrote nothing but deferred statements sends them as one
    /// statement without `BEGIN` or `COMMIT`.
    func commit() async throws {
        if let failure = state.withLock({ $0.failure }) { throw failure }
        if state.withLock({ $0.begun }) {
            try await flush()
            _ = try await send("COMMIT", [])
        } else {
            try await flush()
        }
    }

    /// Rolls back what was begun (deferred statements not yet sent are dropped).
    func rollback() async throws {
        let begun = state.withLock { state in
            state.deferred.removeAll()
            return state.begun
        }
        if begun { _ = try await connection.query("ROLLBACK", []) }
    }

    private func begin() async throws {
        guard !state.withLock({ $0.begun }) else { return }
        _ = try await send("BEGIN", [])
        state.withLock { $0.begun = true }
    }

    /// Sends the deferred statements: one as it is, several as one statement of `WITH` clauses. Inside the begun
    /// transaction, except at the commit of one that wrote nothing else, where the statement is its own transaction.
    private func flush() async throws {
        let waiting = state.withLock { state in
            defer { state.deferred.removeAll() }
            return state.deferred
        }
        guard let last = waiting.last else { return }
        let clauses = waiting.dropLast().enumerated().map { "flint_deferred_\($0.offset) AS (\($0.element.sql))" }
        let sql = clauses.isEmpty ? last.sql : "WITH " + clauses.joined(separator: ", ") + " " + last.sql
        _ = try await send(sql, waiting.flatMap(\.binds))
    }

    private func send(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow] {
        do {
            return try await connection.query(sql, binds)
        } catch {
            state.withLock { if $0.failure == nil { $0.failure = error } }
            throw error
        }
    }

    /// Whether `sql` only reads and locks nothing: a `SELECT` without `FOR UPDATE` / `FOR SHARE`.
    static func isPlainRead(_ sql: String) -> Bool {
        let text = sql.drop(while: \.isWhitespace).prefix(6).uppercased()
        guard text == "SELECT" else { return false }
        let upper = sql.uppercased()
        return !upper.contains("FOR UPDATE") && !upper.contains("FOR SHARE") && !upper.contains("FOR NO KEY UPDATE")
    }

    /// The table a deferrable statement writes (`INSERT INTO t`, `UPDATE t`, `DELETE FROM t`), or `nil` for anything
    /// else, which then runs at once.
    static func target(of sql: String) -> String? {
        let words = sql.split(whereSeparator: \.isWhitespace).prefix(3).map { $0.uppercased() }
        switch words.first {
        case "INSERT" where words.count == 3 && words[1] == "INTO": return words[2].lowercased()
        case "UPDATE" where words.count >= 2: return words[1].lowercased()
        case "DELETE" where words.count == 3 && words[1] == "FROM": return words[2].lowercased()
        default: return nil
        }
    }
}
