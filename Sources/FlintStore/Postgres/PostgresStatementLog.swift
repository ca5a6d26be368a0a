import Synchronization

/// What a PostgreSQL store sends, statement by statement, for the task that sets it as ``current`` (and its child
/// tasks: a request's handler in the router's tests): each entry is one round trip to the server (PostgresNIO waits
/// for each answer before it sends the next statement on a connection). Tests count a flow's round trips,
/// transactions and preparations with it (issue 35); a node's background work, in tasks of its own, is not recorded.
final class PostgresStatementLog: Sendable {
    /// The log the current task's statements go to, if any.
    @TaskLocal static var current: PostgresStatementLog?

    /// One statement sent.
    struct Entry: Sendable, CustomStringConvertible {
        /// The text as PostgreSQL received it (`$n` placeholders).
        let sql: String
        /// The tables it names (none for `BEGIN`, `COMMIT`).
        let tables: Set<SQLTable>
        /// How many values are bound to it.
        let values: Int
        /// The name it ran under (a prepared statement), or `nil` for an unnamed one, parsed and planned each time.
        let name: String?
        /// A named statement's first run on its connection in this log: PostgresNIO sends its `Parse` with it.
        let prepares: Bool

        var description: String {
            let how = name.map { prepares ? "prepares \($0)" : "prepared \($0)" } ?? "unnamed"
            let text = sql.count > 160 ? String(sql.prefix(157)) + "…" : sql
            return "[\(how), \(values) values] \(text)"
        }
    }

    private let state = Mutex<(entries: [Entry], prepared: Set<String>)>(([], []))

    init() {}

    /// What was recorded since the last take, taken out. Which names were prepared on which connection is kept.
    func take() -> [Entry] {
        state.withLock { state in
            defer { state.entries.removeAll() }
            return state.entries
        }
    }

    /// Records `sql` sent on connection `connection` (a name for it, unique in the process).
    func record(_ sql: String, tables: Set<SQLTable>, values: Int, name: String?, connection: Int) {
        state.withLock { state in
            let prepares = name.map { state.prepared.insert("\(connection) \($0)").inserted } ?? false
            state.entries.append(Entry(sql: sql, tables: tables, values: values, name: name, prepares: prepares))
        }
    }
}
