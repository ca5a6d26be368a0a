import Logging
import Synchronization

/// Reads, run by a few loops that each own one read connection on a serial executor of its own: a read's
/// synchronous SQLite calls (and the opening of the connection, which touches the file) never run on the shared
/// cooperative pool, whatever the disk does. A caller queues its read and waits; under load a loop drains many reads
/// per wake-up, so the thread hop is paid per batch. WAL lets these connections read while the writer writes.
final class ReaderPool: Sendable {
    private let loops: [ReadLoop]
    private let next = Atomic<Int>(0)

    /// Starts `count` loops reading `path`.
    init(path: String, count: Int, logger: Logger) {
        loops = (0..<max(1, count)).map { ReadLoop(path: path, number: $0, logger: logger) }
    }

    /// Runs `body` on one of the read connections, on that connection's executor.
    func with<T: Sendable>(_ body: @escaping @Sendable (SQLiteDatabase) async throws -> T) async throws -> T {
        let index = next.add(1, ordering: .relaxed).oldValue % loops.count
        return try await loops[index].run(body)
    }

    /// Finishes the queued reads, closes the connections and refuses further reads.
    func close() async {
        for loop in loops { await loop.close() }
    }
}

/// One read connection and the loop that runs the reads queued for it.
final class ReadLoop: Sendable {
    /// A queued read: runs against the connection (or fails with why there is none) and answers its caller.
    typealias Job = @Sendable (Result<SQLiteDatabase, any Error>) async -> Void

    private let queue = JobQueue<Job>()
    private let task: Task<Void, Never>

    init(path: String, number: Int, logger: Logger) {
        let queue = self.queue
        let executor = ThreadExecutor(label: "flint.sqlite.reader.\(number)")
        task = Task(executorPreference: executor) {
            let connection: Result<SQLiteDatabase, any Error>
            do {
                connection = .success(try SQLiteDatabase(path: path))
            } catch {
                logger.error("sqlite read connection could not be opened", metadata: ["errorType": "\(type(of: error))"])
                connection = .failure(error)
            }
            for await _ in queue.signals {
                while true {
                    let batch = queue.drain(max: 256)
                    if batch.isEmpty { break }
                    for job in batch { await job(connection) }
                }
            }
            if case .success(let database) = connection { database.close() }
        }
    }

    /// Queues `body` and waits for its answer.
    func run<T: Sendable>(_ body: @escaping @Sendable (SQLiteDatabase) async throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let job: Job = { connection in
                do {
                    continuation.resume(returning: try await body(try connection.get()))
                } catch {
                    continuation.resume(throwing: error)
                }
            }
            if !queue.enqueue(job) { continuation.resume(throwing: StoreError.closed) }
        }
    }

    /// Lets the queued reads finish, then closes the connection.
    func close() async {
        queue.finish()
        await task.value
    }
}
