import Synchronization

/// Read connections lent out one at a time. A read runs right on the caller's thread (SQLite reads of cached pages
/// take microseconds), so it costs no thread hop; WAL lets these connections read while the writer writes.
final class ReaderPool: Sendable {
    private let path: String
    private let idle = Mutex<(connections: [SQLiteDatabase], open: Bool)>(([], true))
    /// Idle connections kept beyond this many are closed.
    private let keep: Int

    init(path: String, keep: Int) {
        self.path = path
        self.keep = keep
    }

    /// Runs `body` with a connection no one else is using.
    func with<T>(_ body: (SQLiteDatabase) async throws -> T) async throws -> T {
        let lent = try idle.withLock { state -> SQLiteDatabase? in
            guard state.open else { throw StoreError.closed }
            return state.connections.popLast()
        }
        let connection = try lent ?? SQLiteDatabase(path: path)
        defer {
            let surplus = idle.withLock { state -> SQLiteDatabase? in
                guard state.open, state.connections.count < keep else { return connection }
                state.connections.append(connection)
                return nil
            }
            surplus?.close()
        }
        return try await body(connection)
    }

    /// Closes the idle connections and refuses further reads.
    func close() {
        let connections = idle.withLock { state -> [SQLiteDatabase] in
            state.open = false
            defer { state.connections.removeAll() }
            return state.connections
        }
        for c in connections { c.close() }
    }
}
