import FlintCore

/// A value bound into, or read out of, a SQL statement.
enum SQLValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case text(String)
    case bool(Bool)
}

extension Optional where Wrapped == String {
    /// `NULL` or the text.
    var sql: SQLValue { map(SQLValue.text) ?? .null }
}

extension Optional where Wrapped == Int64 {
    /// `NULL` or the integer.
    var sql: SQLValue { map(SQLValue.integer) ?? .null }
}

/// A result's column names and where each stands, made once per statement and shared by its rows.
final class SQLColumns: Sendable {
    /// The position of each name (the last, where a name repeats).
    let positions: [String: Int]

    init(_ names: [String]) {
        var positions: [String: Int] = [:]
        positions.reserveCapacity(names.count)
        for (position, name) in names.enumerated() { positions[name] = position }
        self.positions = positions
    }
}

/// One result row, read by column name.
struct SQLRow: Sendable {
    let columns: SQLColumns
    /// The row's values, in the columns' order.
    let cells: [SQLValue]

    /// The value of `column`, `nil` when the result has no such column.
    private subscript(column: String) -> SQLValue? { columns.positions[column].map { cells[$0] } }

    /// A non-null text column.
    func string(_ column: String) throws -> String {
        guard case .text(let s)? = self[column] else { throw SQLStoreError.unexpectedColumn(column) }
        return s
    }

    /// A nullable text column.
    func optionalString(_ column: String) throws -> String? {
        switch self[column] {
        case .text(let s)?: return s
        case .null?, nil: return nil
        default: throw SQLStoreError.unexpectedColumn(column)
        }
    }

    /// A non-null integer column.
    func int64(_ column: String) throws -> Int64 {
        guard case .integer(let n)? = self[column] else { throw SQLStoreError.unexpectedColumn(column) }
        return n
    }

    /// A nullable integer column.
    func optionalInt64(_ column: String) throws -> Int64? {
        switch self[column] {
        case .integer(let n)?: return n
        case .null?, nil: return nil
        default: throw SQLStoreError.unexpectedColumn(column)
        }
    }

    /// A boolean column (SQLite stores 0/1, PostgreSQL a real boolean).
    func bool(_ column: String) throws -> Bool {
        switch self[column] {
        case .bool(let b)?: return b
        case .integer(let n)?: return n != 0
        default: throw SQLStoreError.unexpectedColumn(column)
        }
    }
}

/// Runs the shared statements. Placeholders are `?`; each engine translates as it needs.
protocol SQLExecutor: Sendable {
    /// The dialect, for the few statements that differ.
    var dialect: SQLDialect { get }
    /// Runs one statement and returns its rows (none for statements without results). A closing statement
    /// (``SQLStatement/closing``) is the transaction's last: nothing may follow it but the commit (no other statement,
    /// and no failure of the caller's, which could no longer roll it back). On PostgreSQL, in a write transaction not
    /// yet begun, it goes with the deferred writes as one statement that commits by itself (``PostgresTransaction``),
    /// so it must be atomic on its own: a refusal is an error it raises.
    func query(_ statement: SQLStatement) async throws -> [SQLRow]
    /// Runs a write whose result the flow does not read (an insert of a new row, a stamp), now or — on PostgreSQL,
    /// within the transaction — with the next statement's round trip (``PostgresTransaction``). Its failure fails
    /// the transaction, at the latest at its commit.
    func deferred(_ statement: SQLStatement) async throws
}

extension SQLExecutor {
    /// Runs the statement now: every executor but a PostgreSQL write transaction.
    func deferred(_ statement: SQLStatement) async throws {
        _ = try await query(statement)
    }

    /// Runs a statement for its effect.
    func run(_ statement: SQLStatement) async throws {
        _ = try await query(statement)
    }

    /// The first row, if any.
    func first(_ statement: SQLStatement) async throws -> SQLRow? {
        try await query(statement).first
    }
}

/// Failures of the SQL layer itself (never shown to clients).
enum SQLStoreError: Error, CustomStringConvertible {
    case unexpectedColumn(String)
    case engine(code: Int32, message: String)
    /// A statement was sent after a transaction's closing one (``SQLStatement/closing``): a mistake of the
    /// caller's, refused rather than run outside the transaction.
    case afterClosingStatement

    var description: String {
        switch self {
        case .unexpectedColumn(let c): "unexpected value in column \(c)"
        case .afterClosingStatement: "a statement after the transaction's closing statement"
        case .engine(let code, let message): "database error \(code): \(message)"
        }
    }
}

extension SQLValue {
    /// An instant as the milliseconds every time column but two holds.
    static func instant(_ instant: Instant) -> SQLValue { .integer(instant.millisecondsSince1970) }
    /// An instant as whole seconds, as `users.valid_since` and `refresh_tokens.auth_time` hold it (the wire's unit).
    static func seconds(_ instant: Instant) -> SQLValue { .integer(instant.secondsSince1970) }
}

extension Optional where Wrapped == Instant {
    /// `NULL` or the instant's milliseconds.
    var sql: SQLValue { map(SQLValue.instant) ?? .null }
}

extension SQLRow {
    /// A non-null column of milliseconds.
    func instant(_ column: String) throws -> Instant { Instant(millisecondsSince1970: try int64(column)) }

    /// A nullable column of milliseconds.
    func optionalInstant(_ column: String) throws -> Instant? {
        try optionalInt64(column).map(Instant.init(millisecondsSince1970:))
    }

    /// A non-null column of whole seconds (`valid_since`, `auth_time`).
    func instant(seconds column: String) throws -> Instant { Instant(secondsSince1970: try int64(column)) }
}
