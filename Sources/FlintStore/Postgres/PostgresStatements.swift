import PostgresNIO
import Synchronization

/// The statements a PostgreSQL store sends, each rewritten once for PostgreSQL (`?` → `$n`) and, when it is worth it,
/// given a name under which every connection prepares it once and then runs it without PostgreSQL parsing and planning
/// it again (issue 17: parsing and planning were most of the server's CPU per sign-in).
///
/// What is prepared: reads and writes (every ``SQLStatement`` but a ``SQLStatement/Effect/command``) put together from
/// statements of at most ``maximumPlaceholders`` placeholders each (``SQLStatement/widestPart``: a sign-in's new
/// account, session and audit event carried by one statement are prepared, issue 35), up to ``capacity`` distinct
/// statements per process; anything else (`BEGIN`, `COMMIT`, DDL, bulk inserts, lists of many values, statements past
/// the capacity) runs as an unnamed statement, as before. A name stands for one text (with the kinds of its values) in this process, so each connection holds at
/// most ``capacity`` prepared statements. A capacity of 0 prepares nothing: for a pooler that does not carry prepared statements across server
/// connections (PgBouncer in transaction mode before 1.21).
final class PostgresStatements: Sendable {
    /// One statement as PostgreSQL receives it.
    struct Statement: Sendable {
        /// The text with `$n` placeholders.
        let sql: String
        /// The name it is prepared under, or `nil` to run it unnamed.
        let name: String?
    }

    /// A statement with the kinds of the values bound to it, two bits each (null, integer, text, boolean): a
    /// prepared statement keeps the parameter types of its first execution, and a `NULL` (whose type PostgreSQL infers
    /// from the statement) is not an integer, so each combination is prepared apart. The first 32 values' kinds are
    /// `kinds`, any further ones' `moreKinds` (empty, so not allocated, for most statements).
    private struct Key: Hashable {
        var sql: String
        var kinds: UInt64
        var moreKinds: [UInt64]

        init(_ query: SQLStatement) {
            sql = query.sql
            (kinds, moreKinds) = (0, [])
            for (index, value) in query.binds.enumerated() {
                let kind: UInt64 =
                    switch value {
                    case .null: 0
                    case .integer: 1
                    case .text: 2
                    case .bool: 3
                    }
                let (word, bit) = (index / 32, 2 * UInt64(index % 32))
                if word == 0 {
                    kinds |= kind << bit
                } else {
                    if moreKinds.count < word { moreKinds.append(0) }
                    moreKinds[word - 1] |= kind << bit
                }
            }
        }
    }

    /// How many distinct statements get a name.
    let capacity: Int
    /// Statements with more placeholders in one part are generated from lists (imports, `IN (…)` of many IDs) and run unnamed.
    static let maximumPlaceholders = 32
    private let known = Mutex<(statements: [Key: Statement], named: Int)>(([:], 0))

    init(capacity: Int) { self.capacity = capacity }

    /// `query` as PostgreSQL receives it (remembered, so the rewrite happens once per text).
    func statement(_ query: SQLStatement) -> Statement {
        guard query.widestPart <= Self.maximumPlaceholders else { return Statement(sql: Self.numbered(query.sql).sql, name: nil) }
        let key = Key(query)
        if let found = known.withLock({ $0.statements[key] }) { return found }
        let numbered = Self.numbered(query.sql).sql
        return known.withLock { known in
            if let found = known.statements[key] { return found }
            var name: String?
            if known.named < capacity, query.effect != .command {
                known.named += 1
                name = "flint_\(known.named)"
            }
            let statement = Statement(sql: numbered, name: name)
            // Unnamed texts are remembered too, up to a bound.
            if name != nil || known.statements.count < capacity + 1000 { known.statements[key] = statement }
            return statement
        }
    }

    /// Gives `query` a new name, or none, the next time it is asked for: its preparation failed on a connection (in a
    /// transaction already aborted, or cancelled), and PostgresNIO answers every later use of that name on that
    /// connection with the same error.
    func retire(_ query: SQLStatement) {
        let key = Key(query)
        known.withLock { _ = $0.statements.removeValue(forKey: key) }
    }

    /// Whether a failure of a named statement may be its preparation's, kept for the name on that connection:
    /// a transaction already aborted (25P02), a cancelled statement (57014), a plan whose result changed under a
    /// migration (0A000), or a name the server does not know (26000).
    static func mayHaveSpoiledTheName(_ error: any Error) -> Bool {
        guard let state = (error as? PSQLError)?.serverInfo?[.sqlState] else { return false }
        return ["25P02", "57014", "0A000", "26000"].contains(state)
    }

    /// Rewrites `?` placeholders (outside quoted text) as PostgreSQL's `$n`, and counts them. Works on the UTF-8
    /// bytes: bulk inserts carry thousands of placeholders.
    static func numbered(_ sql: String) -> (sql: String, placeholders: Int) {
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
        return (String(decoding: out, as: UTF8.self), n)
    }
}

/// A named statement for PostgresNIO's prepared-statement API, whose name and text are fixed per type: they come from
/// the task-local ``current`` instead, set around each execution (PostgresNIO reads both before its first suspension,
/// in the calling task). PostgresNIO prepares a name on a connection the first time it runs there, and runs it by
/// name afterwards.
struct NamedStatement: PostgresPreparedStatement {
    typealias Row = PostgresRow

    /// The name and `$n` text of the statement being executed.
    @TaskLocal static var current = (name: "", sql: "")

    static var name: String { current.name }
    static var sql: String { current.sql }

    let bindings: PostgresBindings

    func makeBindings() throws -> PostgresBindings { bindings }
    func decodeRow(_ row: PostgresRow) throws -> PostgresRow { row }
}
