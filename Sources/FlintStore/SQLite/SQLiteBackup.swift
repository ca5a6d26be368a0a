/// An online copy of a SQLite store's database file, taken while nodes serve it, and the checks a restore runs on a
/// copy before anything opens it as a store.
///
/// The copy is `VACUUM INTO` on a connection of its own (in the copying process, not the node's): one read
/// transaction, so the copy is the database as of one commit, whatever commits while it runs. In WAL mode a reader
/// holds no lock a writer waits for: the node's writer keeps committing into the WAL during the copy, and only the
/// checkpoint cannot move past the copy's snapshot until it ends (the WAL grows by what is committed meanwhile).
/// SQLite's backup API (`sqlite3_backup_step`) gives the same snapshot only when it copies every page in one step,
/// holding the same read transaction for as long; copied in slices, it starts over after every commit another
/// connection makes, which under sign-in load is every few milliseconds. `VACUUM INTO` is one statement, leaves no
/// free pages in the copy, and measured as fast: a 390 MB table of 1,000,000 user rows with its indexes copied in
/// 2.7 s by `VACUUM INTO` and 2.8 s by the backup API in one step, while another process committed about 150
/// inserts a second (docs/operations.md, "Backups").
public enum SQLiteBackup {
    /// Copies the database at `source` into a new file at `destination` (which must not exist, or be empty).
    /// SQLite does not flush the new file to disk: the caller does, before it calls the copy a backup.
    /// - Throws: ``SQLStoreError`` when the source cannot be opened or read, or the destination written.
    public static func copy(databaseAt source: String, to destination: String) async throws {
        try await onConnection(source) { db in _ = try db.querySync("VACUUM INTO ?", [.text(destination)]) }
    }

    /// What `PRAGMA integrity_check` finds wrong with the database at `path`: empty when it is sound.
    public static func integrityProblems(databaseAt path: String) async throws -> [String] {
        let rows = try await onConnection(path) { db in try db.querySync("PRAGMA integrity_check", []) }
        let findings = rows.compactMap { row -> String? in
            guard case .text(let text)? = row.cells.first else { return nil }
            return text
        }
        return findings == ["ok"] ? [] : findings
    }

    /// The schema version recorded in the database at `path`, read without migrating it.
    /// - Throws: ``SQLStoreError`` when the file is no Flint database (it has no `flint_schema` table).
    public static func schemaVersion(databaseAt path: String) async throws -> Int {
        try await onConnection(path) { db in
            Int(try db.querySync("SELECT COALESCE(MAX(version), 0) AS v FROM flint_schema", []).first?.int64("v") ?? 0)
        }
    }

    /// Runs `body` on a connection of its own to the existing file at `path`, on a thread of its own (the calls
    /// block), and closes it.
    private static func onConnection<T: Sendable>(_ path: String, _ body: @escaping @Sendable (SQLiteDatabase) throws -> T) async throws -> T {
        let executor = ThreadExecutor(label: "flint.sqlite.backup")
        return try await withTaskExecutorPreference(executor) {
            let db = try SQLiteDatabase(path: path, creating: false)
            defer { db.close() }
            return try body(db)
        }
    }
}
