import Synchronization

/// Read connections lent out one at a time, each with its own serial executor: a read's synchronous SQLite calls
/// (and the opening of a connection, which touches the file) run on that executor's thread, never on the shared
/// cooperative pool, whatever the disk does. WAL lets these connections read while the writer writes.
final class ReaderPool: Sendable {
    private let path: String
    private let idle = Mutex<(connections: [SQLiteStore.Connection], open: Bool, opened: Int)>(([], true, 0))
    /// Idle connections kept beyond this many are closed.
    private let keep: Int

    init(path: String, keep: Int) {
        self.path = path
        self.keep = keep
    }

    /// Runs `body` on a connection no one else is using, on that connection's executor.
    func with<T: Sendable>(_ body: @escaping @Sendable (SQLiteDatabase) async throws -> T) async throws -> T {
        let (lent, number) = try idle.withLock { state -> (SQLiteStore.Connection?, Int) in
            guard state.open else { throw StoreError.closed }
            if let connection = state.connections.popLast() { return (connection, 0) }
            state.opened += 1
            return (nil, state.opened)
        }
        let connection: SQLiteStore.Connection
        if let lent {
            connection = lent
        } else {
            let executor = ThreadExecutor(label: "flint.sqlite.reader.\(number)")
            let path = self.path
            let database = try await withTaskExecutorPreference(executor) { try SQLiteDatabase(path: path) }
            connection = SQLiteStore.Connection(database: database, executor: executor)
        }
        let result: Result<T, any Error>
        do {
            result = .success(try await connection.run(body))
        } catch {
            result = .failure(error)
        }
        let surplus = idle.withLock { state -> SQLiteStore.Connection? in
            guard state.open, state.connections.count < keep else { return connection }
            state.connections.append(connection)
            return nil
        }
        if let surplus { try? await surplus.run { $0.close() } }
        return try result.get()
    }

    /// Closes the idle connections and refuses further reads.
    func close() async {
        let connections = idle.withLock { state -> [SQLiteStore.Connection] in
            state.open = false
            defer { state.connections.removeAll() }
            return state.connections
        }
        for c in connections { try? await c.run { $0.close() } }
    }
}
