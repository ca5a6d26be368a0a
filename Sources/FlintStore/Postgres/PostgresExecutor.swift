import NIOCore
import PostgresNIO

/// Runs the shared statements on one PostgreSQL connection: `?` placeholders become `$1…$n`, and the statements
/// ``PostgresStatements`` names run prepared.
struct PostgresExecutor: SQLExecutor {
    let dialect = SQLDialect.postgresql
    let connection: PostgresConnection
    let statements: PostgresStatements
    let logger: Logger
    func query(_ query: SQLStatement) async throws -> [SQLRow] {
        var bindings = PostgresBindings(capacity: query.binds.count)
        for value in query.binds {
            switch value {
            case .null: bindings.appendNull()
            case .integer(let n): bindings.append(n)
            case .text(let s): bindings.append(s)
            case .bool(let b): bindings.append(b)
            }
        }
        let statement = statements.statement(query)
        PostgresStatementLog.current?.record(
            statement.sql, tables: query.tables, values: query.binds.count, name: statement.name, connection: connection.id)
        do {
            guard let name = statement.name else {
                return try await Self.collect(connection.query(PostgresQuery(unsafeSQL: statement.sql, binds: bindings), logger: logger))
            }
            do {
                return try await NamedStatement.$current.withValue((name, statement.sql)) {
                    try await Self.collect(connection.execute(NamedStatement(bindings: bindings), logger: logger))
                }
            } catch {
                if PostgresStatements.mayHaveSpoiledTheName(error) { statements.retire(query) }
                throw error
            }
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == Self.pastLimitState {
            throw CounterPastLimit(key: CounterKey(rawValue: error.serverInfo?[.message] ?? ""))
        }
    }

    /// The SQLSTATE `flint_past_limit` raises (migration 16).
    static let pastLimitState = "FL001"

    /// The rows of an answer, as the shared layer reads them.
    private static func collect<Rows: AsyncSequence>(_ rows: Rows) async throws -> [SQLRow] where Rows.Element == PostgresRow {
        var out: [SQLRow] = []
        var columns: SQLColumns?
        for try await row in rows {
            let shared = columns ?? SQLColumns(row.map(\.columnName))
            columns = shared
            var cells: [SQLValue] = []
            for cell in row { cells.append(try Self.value(of: cell)) }
            out.append(SQLRow(columns: shared, cells: cells))
        }
        return out
    }

    private static func value(of cell: PostgresCell) throws -> SQLValue {
        guard cell.bytes != nil else { return .null }
        switch cell.dataType {
        case .int8, .int4, .int2: return .integer(try cell.decode(Int64.self))
        case .bool: return .bool(try cell.decode(Bool.self))
        default: return .text(try cell.decode(String.self))
        }
    }
}
