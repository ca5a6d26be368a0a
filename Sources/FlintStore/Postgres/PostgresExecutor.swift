import NIOCore
import PostgresNIO

/// Runs the shared statements on one PostgreSQL connection: `?` placeholders become `$1…$n`.
struct PostgresExecutor: SQLExecutor {
    let dialect = SQLDialect.postgresql
    let connection: PostgresConnection
    let logger: Logger

    func query(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow] {
        var bindings = PostgresBindings(capacity: binds.count)
        for value in binds {
            switch value {
            case .null: bindings.appendNull()
            case .integer(let n): bindings.append(n)
            case .text(let s): bindings.append(s)
            case .bool(let b): bindings.append(b)
            }
        }
        let rows = try await connection.query(PostgresQuery(unsafeSQL: Self.numbered(sql), binds: bindings), logger: logger)
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

    /// Rewrites `?` placeholders (outside quoted text) as PostgreSQL's `$n`. Works on the UTF-8 bytes: bulk inserts
    /// carry thousands of placeholders.
    static func numbered(_ sql: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(sql.utf8.count * 2)
        var n = 0
        var quoted = false
        for byte in sql.utf8 {
            if byte == UInt8(ascii: "'") { quoted.toggle() }
            if byte == UInt8(ascii: "?") && !quoted {
                n += 1
                out.append(UInt8(ascii: "$"))
                out.append(contentsOf: String(n).utf8)
            } else {
                out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
