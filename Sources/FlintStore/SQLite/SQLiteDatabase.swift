import CSQLite3
import Logging

/// One SQLite connection used synchronously, with a cache of prepared statements.
///
/// `@unchecked Sendable`: a connection is only ever used from the one thread of the ``ThreadExecutor`` it belongs
/// to (the store runs every call on it), so no two calls overlap. It is opened `NOMUTEX` for that reason.
final class SQLiteDatabase: SQLExecutor, @unchecked Sendable {
    let dialect = SQLDialect.sqlite
    private var handle: OpaquePointer?
    private var statements: [String: OpaquePointer] = [:]

    /// Process-wide SQLite settings, applied once before the first connection opens (they must precede SQLite's
    /// initialization): memory statistics off, so that SQLite's allocations take no global mutex (Debian's build also
    /// omits lookaside, so every small allocation of every connection went through it).
    private static let configured: Void = {
        _ = flint_sqlite_disable_memstatus()
    }()

    /// Opens (creating, unless `creating` is false) the database file, or a private in-memory database when `path`
    /// is `nil`.
    init(path: String?, creating: Bool = true) throws {
        Self.configured
        let flags = SQLITE_OPEN_READWRITE | (creating ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_NOMUTEX
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(path ?? ":memory:", &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close(db)
            throw SQLStoreError.engine(code: rc, message: message)
        }
        handle = db
        sqlite3_busy_timeout(db, 10_000)
        sqlite3_extended_result_codes(db, 1)
    }

    deinit { close() }

    /// Rolls back the open transaction, if there is one. The caller is already handling a failure, so a failed
    /// rollback is logged (with its type) rather than thrown.
    func rollbackIfOpen(logger: Logger) {
        guard let handle, sqlite3_get_autocommit(handle) == 0 else { return }
        do {
            try execute("ROLLBACK")
        } catch {
            logger.warning("sqlite rollback failed", metadata: ["errorType": "\(type(of: error))"])
        }
    }

    /// Finalizes every statement and closes the connection.
    func close() {
        for statement in statements.values { sqlite3_finalize(statement) }
        statements.removeAll()
        if let handle { sqlite3_close_v2(handle) }
        handle = nil
    }

    func query(_ statement: SQLStatement) async throws -> [SQLRow] {
        try querySync(statement.sql, statement.binds)
    }

    /// Runs one statement to completion and returns its rows.
    func querySync(_ sql: String, _ binds: [SQLValue]) throws -> [SQLRow] {
        let statement = try prepared(sql)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        for (i, value) in binds.enumerated() {
            let index = Int32(i + 1)
            let rc: Int32
            switch value {
            case .null: rc = sqlite3_bind_null(statement, index)
            case .integer(let n): rc = sqlite3_bind_int64(statement, index, n)
            case .bool(let b): rc = sqlite3_bind_int64(statement, index, b ? 1 : 0)
            case .text(let s): rc = sqlite3_bind_text(statement, index, s, -1, flint_sqlite_transient())
            }
            guard rc == SQLITE_OK else { throw error(rc) }
        }
        var rows: [SQLRow] = []
        var columns: SQLColumns?
        while true {
            let rc = sqlite3_step(statement)
            if rc == SQLITE_DONE { break }
            guard rc == SQLITE_ROW else { throw error(rc) }
            let count = sqlite3_column_count(statement)
            // The names are read once per statement, not once per row.
            let shared = columns ?? SQLColumns((0..<count).map { String(cString: sqlite3_column_name(statement, $0)) })
            columns = shared
            var cells: [SQLValue] = []
            cells.reserveCapacity(Int(count))
            for column in 0..<count {
                switch sqlite3_column_type(statement, column) {
                case SQLITE_NULL: cells.append(.null)
                case SQLITE_INTEGER: cells.append(.integer(sqlite3_column_int64(statement, column)))
                default:
                    if let text = sqlite3_column_text(statement, column) {
                        cells.append(.text(String(cString: text)))
                    } else {
                        cells.append(.null)
                    }
                }
            }
            rows.append(SQLRow(columns: shared, cells: cells))
        }
        return rows
    }

    /// Runs statements that take no parameters (pragmas, transaction control, DDL).
    func execute(_ sql: String) throws {
        guard let handle else { throw SQLStoreError.engine(code: SQLITE_MISUSE, message: "closed") }
        let rc = sqlite3_exec(handle, sql, nil, nil, nil)
        guard rc == SQLITE_OK else { throw error(rc) }
    }

    private func prepared(_ sql: String) throws -> OpaquePointer {
        if let cached = statements[sql] { return cached }
        guard let handle else { throw SQLStoreError.engine(code: SQLITE_MISUSE, message: "closed") }
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard rc == SQLITE_OK, let statement else { throw error(rc) }
        statements[sql] = statement
        return statement
    }

    private func error(_ rc: Int32) -> SQLStoreError {
        .engine(code: rc, message: handle.map { String(cString: sqlite3_errmsg($0)) } ?? "closed")
    }
}
