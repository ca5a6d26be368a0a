/// The SQL engine behind an executor, for the few statements that differ between engines.
struct SQLDialect: RawRepresentable, Hashable, Sendable {
    /// The engine's name.
    let rawValue: String

    /// A dialect by name.
    init(rawValue: String) { self.rawValue = rawValue }

    /// The embedded SQLite store.
    static let sqlite = SQLDialect(rawValue: "sqlite")
    /// PostgreSQL through PostgresNIO.
    static let postgresql = SQLDialect(rawValue: "postgresql")
}
