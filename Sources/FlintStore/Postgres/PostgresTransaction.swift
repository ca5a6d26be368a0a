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
///   clauses, at most one per table, so no row is written twice by one statement. A write (`INSERT`, `UPDATE`,
///   `DELETE`) that names none of their tables carries them the same way, as `WITH` clauses of its own statement
///   (a code send's session and text riding on its counters). Any other statement sends the waiting ones first, so
///   it sees their effects, as without deferral — except a plain read that names none of the waiting writes' tables,
///   which cannot see their effects and so neither sends them nor begins the transaction (a sign-in's read of the
///   account's federated identities after its session and audit rows were deferred).
/// - At the commit, a transaction whose only writes are deferred sends them as one statement, which commits by
///   itself: no `BEGIN`, no `COMMIT`. Otherwise they go before `COMMIT`.
/// - A closing statement (``closingQuery(_:_:)``: the last, atomic on its own, its refusals raised as errors) in a
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
        var deferred: [(table: String, sql: String, binds: [SQLValue])] = []
        var failure: (any Error)?
    }

    /// A transaction on `connection` (a ``PostgresExecutor``; tests record what it is sent).
    init(_ connection: any SQLExecutor) { self.connection = connection }

    func query(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow] {
        let waiting = try state.withLock { state in
            guard !state.closed else { throw SQLStoreError.afterClosingStatement }
            return Set(state.deferred.map(\.table))
        }
        if Self.isPlainRead(sql), !Self.names(any: waiting, in: sql) {
            // A read of tables no waiting write touches sees the same rows before those writes as after them.
            return try await send(sql, binds)
        }
        // Deferred writes go first, inside the transaction: what follows belongs to the same one.
        if !waiting.isEmpty || !Self.isPlainRead(sql) { try await begin() }
        if !waiting.isEmpty, Self.target(of: sql) != nil, !Self.names(any: waiting, in: sql) {
            // A write of other tables carries them as `WITH` clauses: one round trip instead of two. It cannot see
            // their effects (one snapshot for the whole statement), and it touches none of their tables.
            return try await send(combining: takeDeferred(), with: (sql, binds))
        }
        try await flush()
        return try await send(sql, binds)
    }

    func closingQuery(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow] {
        let (begun, waiting) = state.withLock { ($0.begun, Set($0.deferred.map(\.table))) }
        let rows: [SQLRow]
        if begun || Self.names(any: waiting, in: sql) {
            rows = try await query(sql, binds)
        } else {
            // The statement and the waiting writes are the whole transaction: one statement, its own transaction.
            rows = try await send(combining: takeDeferred(), with: (sql, binds))
        }
        state.withLock { $0.closed = true }
        return rows
    }

    func deferred(_ sql: String, _ binds: [SQLValue]) async throws {
        guard !state.withLock({ $0.closed }) else { throw SQLStoreError.afterClosingStatement }
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
        try await flush()
        if state.withLock({ $0.begun }) { _ = try await send("COMMIT", []) }
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
        let waiting = takeDeferred()
        guard let last = waiting.last else { return }
        _ = try await send(combining: waiting.dropLast(), with: (last.sql, last.binds))
    }

    /// The deferred statements, taken out of the queue.
    private func takeDeferred() -> [(table: String, sql: String, binds: [SQLValue])] {
        state.withLock { state in
            defer { state.deferred.removeAll() }
            return state.deferred
        }
    }

    /// Sends `main` with `clauses` as its data-modifying `WITH` clauses (their `?` placeholders come first, so their
    /// values do too), and returns what `main` returns.
    private func send(
        combining clauses: some Collection<(table: String, sql: String, binds: [SQLValue])>, with main: (sql: String, binds: [SQLValue])
    ) async throws -> [SQLRow] {
        guard !clauses.isEmpty else { return try await send(main.sql, main.binds) }
        let with = "WITH " + clauses.enumerated().map { "flint_deferred_\($0.offset) AS (\($0.element.sql))" }.joined(separator: ", ")
        // A statement with `WITH` clauses of its own gets the deferred ones in front of them (Flint carries none
        // with a `WITH RECURSIVE`, whose keyword would have to come first).
        var words = Words(main.sql)
        let sql = words.next()?.is("WITH") == true ? with + ", " + main.sql.drop(while: \.isWhitespace).dropFirst(4) : with + " " + main.sql
        return try await send(sql, clauses.flatMap(\.binds) + main.binds)
    }

    private func send(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow] {
        // The server refuses everything after a failure until the rollback; not sending spares it the round trip and
        // spares a statement its first preparation on this connection failing for a reason not its own.
        if let failure = state.withLock({ $0.failure }) { throw failure }
        do {
            return try await connection.query(sql, binds)
        } catch {
            state.withLock { if $0.failure == nil { $0.failure = error } }
            throw error
        }
    }

    /// Whether `sql` only reads and locks nothing: a `SELECT` without `FOR UPDATE` / `FOR SHARE` (`FOR NO KEY
    /// UPDATE`, `FOR KEY SHARE`). Reads the UTF-8 bytes without copying them: it runs for every statement.
    static func isPlainRead(_ sql: String) -> Bool {
        var words = Words(sql)
        guard words.next()?.is("SELECT") == true else { return false }
        var afterFor = false
        while let word = words.next() {
            if afterFor, word.is("UPDATE") || word.is("SHARE") || word.is("NO") || word.is("KEY") { return false }
            afterFor = word.is("FOR")
        }
        return true
    }

    /// Whether any word of `sql` is one of `tables` (lower-case names): a read that may see what a waiting write to one
    /// of them changes. A word rather than a `FROM` clause is looked for, so joins, subqueries and a column that happens
    /// to share a table's name all count (at worst a read waits for writes it did not need).
    static func names(any tables: Set<String>, in sql: String) -> Bool {
        guard !tables.isEmpty else { return false }
        var words = Words(sql)
        while let word = words.next() {
            if tables.contains(word.name) { return true }
        }
        return false
    }

    /// The table a deferrable statement writes (`INSERT INTO t`, `UPDATE t`, `DELETE FROM t`), or `nil` for anything
    /// else, which then runs at once.
    static func target(of sql: String) -> String? {
        var words = Words(sql)
        guard let verb = words.next() else { return nil }
        if verb.is("INSERT") { return words.next()?.is("INTO") == true ? words.next()?.name : nil }
        if verb.is("UPDATE") { return words.next()?.name }
        if verb.is("DELETE") { return words.next()?.is("FROM") == true ? words.next()?.name : nil }
        return nil
    }

    /// The words of a statement, one at a time: runs of ASCII letters, digits and `_` (quoted text is not told apart;
    /// no statement of Flint's has `FOR UPDATE` inside a string).
    struct Words {
        private let bytes: String.UTF8View
        private var index: String.UTF8View.Index

        init(_ sql: String) { (bytes, index) = (sql.utf8, sql.utf8.startIndex) }

        /// One word: a view of the statement's bytes.
        struct Word {
            let bytes: Substring.UTF8View

            /// Whether the word is `keyword` (upper-case ASCII), in any case.
            func `is`(_ keyword: StaticString) -> Bool {
                let expected = UnsafeBufferPointer(start: keyword.utf8Start, count: keyword.utf8CodeUnitCount)
                return bytes.count == expected.count && zip(bytes, expected).allSatisfy { $0 & 0xDF == $1 }
            }

            /// The word as a lower-case name.
            var name: String { String(Substring(bytes)).lowercased() }
        }

        mutating func next() -> Word? {
            while index < bytes.endIndex, !Self.isWordByte(bytes[index]) { bytes.formIndex(after: &index) }
            guard index < bytes.endIndex else { return nil }
            let start = index
            while index < bytes.endIndex, Self.isWordByte(bytes[index]) { bytes.formIndex(after: &index) }
            return Word(bytes: Substring(bytes[start..<index]).utf8)
        }

        private static func isWordByte(_ byte: UInt8) -> Bool {
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
        }
    }
}
