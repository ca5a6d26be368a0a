/// What the SQL implementation of each aggregate's protocol (`extension UsersWrites where Self: SQLBacked`, …) runs
/// on: an executor of the shared statements. ``SQLQueries`` composes them for both engines.
protocol SQLBacked: Sendable {
    var db: any SQLExecutor { get }
}

extension SQLBacked {
    /// IDs bound per `IN (…)` list: far below both engines' limits on bound values.
    static var idsPerStatement: Int { 500 }

    /// `?, ?, …` (`count` of them).
    static func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }

    /// Runs the statement `statement` makes of an `IN` list's placeholders and their values once per slice of `ids`,
    /// and returns every row. The values come after `leading` (those of the placeholders before the list: a tenant).
    func forEachSlice(
        of ids: [String], leading: [SQLValue] = [], _ statement: (_ list: String, _ binds: [SQLValue]) -> SQLStatement
    ) async throws -> [SQLRow] {
        var rows: [SQLRow] = []
        var start = 0
        while start < ids.count {
            let slice = ids[start..<min(start + Self.idsPerStatement, ids.count)]
            rows += try await db.query(statement(Self.placeholders(slice.count), leading + slice.map(SQLValue.text)))
            start += slice.count
        }
        return rows
    }
}
