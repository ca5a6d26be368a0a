import CSQLite3
import Testing

@testable import FlintStore

/// SQLite's process-wide settings, which must be applied before its first connection opens.
@Suite("SQLite's process-wide settings")
struct SQLiteProcessSettingsTests {
    @Test("memory statistics are off: SQLite's allocations take no process-wide mutex to count themselves")
    func memoryStatisticsOff() throws {
        let db = try SQLiteDatabase(path: nil)
        try db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT)")
        for i in 0..<200 { try db.execute("INSERT INTO t (body) VALUES ('\(String(repeating: "x", count: i * 10))')") }
        _ = try db.querySync("SELECT count(*), sum(length(body)) FROM t", [])
        var current: Int64 = -1
        var highest: Int64 = -1
        #expect(sqlite3_status64(SQLITE_STATUS_MEMORY_USED, &current, &highest, 0) == SQLITE_OK)
        // With statistics on, this connection alone holds tens of KiB; off, SQLite counts nothing.
        #expect(current == 0 && highest == 0, "SQLite counted \(current) bytes in use (highest \(highest))")
        // The setting can only be changed before SQLite initializes, which the first connection did.
        #expect(flint_sqlite_disable_memstatus() == SQLITE_MISUSE)
    }
}
