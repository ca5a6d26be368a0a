import PostgresNIO
import Synchronization

/// One write transaction on a PostgreSQL connection, sent in as few round trips as its statements allow: each
/// statement is one round trip to the server, and a sign-in is a handful of statements (issue 17). What it does is
/// decided from what each ``SQLStatement`` declares (what it does, the tables it names, whether it closes the
/// transaction), never from its text:
///
/// - `BEGIN` waits for the first statement that writes or locks. Reads before it run on their own, which under READ
///   COMMITTED (each statement takes its own snapshot, inside a transaction or not) sees exactly what it would have
///   seen inside, as no write of this transaction exists yet; a `SELECT … FOR UPDATE` begins the transaction first,
///   so its lock lasts until the commit.
/// - Deferred statements (``SQLExecutor/deferred(_:)``: writes whose result the flow does not read) wait and are
///   sent with the next statement's turn: several go as one statement, the deferred ones as data-modifying `WITH`
///   clauses, at most one per table, so no row is written twice by one statement. A plain write (``SQLStatement/plainWriteTarget``)
///   that names none of their tables carries them the same way, as `WITH` clauses of its own statement
///   (a code send's session and text riding on its counters). Any other statement sends the waiting ones first, so
///   it sees their effects, as without deferral — except a plain read that names none of the waiting writes' tables,
///   which cannot see their effects and so neither sends them nor begins the transaction (a sign-in's read of the
///   account's federated identities after its session and audit rows were deferred).
/// - At the commit, a transaction whose only writes are deferred sends them as one statement, which commits by
///   itself: no `BEGIN`, no `COMMIT`. Otherwise they go before `COMMIT`.
/// - A closing statement (``SQLStatement/closing``: the last, atomic on its own, its refusals raised as errors) in a
///   transaction not yet begun goes the same way, carrying the deferred writes: a code send is then its live-session
///   read and one statement. Nothing may follow it.
/// - A statement that failed aborts the transaction on the server (later ones fail, `COMMIT` rolls back): the
///   failure is kept and thrown by every later statement and by ``commit()`` without sending them, so a caller that
///   caught it cannot commit nothing by mistake.
final class PostgresTransaction: SQLExecutor {
    let dialect = SQLDialect.postgresql
    private let connection: any SQLExecutor
    private let state = Mutex(State())

    private struct State {
        var begun = false
        /// A closing statement was sent: nothing may follow.
        var closed = false
        /// Plain writes (``SQLStatement/plainWriteTarget``), at most one per table.
        var deferred: [SQLStatement] = []
        var failure: (any Error)?

        /// The tables the waiting writes write.
        var waiting: Set<SQLTable> { Set(deferred.compactMap(\.plainWriteTarget)) }
    }

    /// A transaction on `connection` (a ``PostgresExecutor``; tests record what it is sent).
    init(_ connection: any SQLExecutor) { self.connection = connection }

    func query(_ statement: SQLStatement) async throws -> [SQLRow] {
        guard statement.closes else { return try await run(statement) }
        let (begun, waiting) = try state.withLock { state in
            guard !state.closed else { throw SQLStoreError.afterClosingStatement }
            return (state.begun, state.waiting)
        }
        let rows: [SQLRow]
        if begun || statement.names(any: waiting) {
            rows = try await run(statement)
        } else {
            // The statement and the waiting writes are the whole transaction: one statement, its own transaction.
            rows = try await send(statement.carrying(takeDeferred()))
        }
        state.withLock { $0.closed = true }
        return rows
    }

    /// Runs a statement that is not the closing one.
    private func run(_ statement: SQLStatement) async throws -> [SQLRow] {
        let waiting = try state.withLock { state in
            guard !state.closed else { throw SQLStoreError.afterClosingStatement }
            return state.waiting
        }
        let plainRead = statement.effect == .read
        if plainRead, !statement.names(any: waiting) {
            // A read of tables no waiting write touches sees the same rows before those writes as after them.
            return try await send(statement)
        }
        // Deferred writes go first, inside the transaction: what follows belongs to the same one.
        if !waiting.isEmpty || !plainRead { try await begin() }
        if !waiting.isEmpty, statement.plainWriteTarget != nil, !statement.names(any: waiting) {
            // A write of other tables carries them as `WITH` clauses: one round trip instead of two. It cannot see
            // their effects (one snapshot for the whole statement), and it touches none of their tables.
            return try await send(statement.carrying(takeDeferred()))
        }
        try await flush()
        return try await send(statement)
    }

    func deferred(_ statement: SQLStatement) async throws {
        guard !state.withLock({ $0.closed }) else { throw SQLStoreError.afterClosingStatement }
        guard let table = statement.plainWriteTarget, !statement.closes else { return _ = try await query(statement) }
        if state.withLock({ $0.waiting.contains(table) }) {
            try await begin()
            try await flush()
        }
        state.withLock { $0.deferred.append(statement) }
    }

    /// Sends what waits and commits; a transaction that wrote nothing but deferred statements sends them as one
    /// statement without `BEGIN` or `COMMIT`.
    func commit() async throws {
        if let failure = state.withLock({ $0.failure }) { throw failure }
        try await flush()
        if state.withLock({ $0.begun }) { _ = try await send(.command("COMMIT")) }
    }

    /// Rolls back what was begun (deferred statements not yet sent are dropped).
    func rollback() async throws {
        let begun = state.withLock { state in
            state.deferred.removeAll()
            return state.begun
        }
        if begun { _ = try await connection.query(.command("ROLLBACK")) }
    }

    private func begin() async throws {
        guard !state.withLock({ $0.begun }) else { return }
        _ = try await send(.command("BEGIN"))
        state.withLock { $0.begun = true }
    }

    /// Sends the deferred statements: one as it is, several as one statement of `WITH` clauses. Inside the begun
    /// transaction, except at the commit of one that wrote nothing else, where the statement is its own transaction.
    private func flush() async throws {
        let waiting = takeDeferred()
        guard let last = waiting.last else { return }
        _ = try await send(last.carrying(waiting.dropLast()))
    }

    /// The deferred statements, taken out of the queue.
    private func takeDeferred() -> [SQLStatement] {
        state.withLock { state in
            defer { state.deferred.removeAll() }
            return state.deferred
        }
    }

    private func send(_ statement: SQLStatement) async throws -> [SQLRow] {
        // The server refuses everything after a failure until the rollback; not sending spares it the round trip and
        // spares a statement its first preparation on this connection failing for a reason not its own.
        if let failure = state.withLock({ $0.failure }) { throw failure }
        do {
            return try await connection.query(statement)
        } catch {
            state.withLock { if $0.failure == nil { $0.failure = error } }
            throw error
        }
    }
}
