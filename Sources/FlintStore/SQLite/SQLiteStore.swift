public import Logging
import NIOCore
import NIOPosix
import SQLKit
import SQLiteKit
import Synchronization

/// The embedded store: one SQLite file in WAL mode with `synchronous=FULL`.
///
/// All writes go through one writer connection that *group-commits*: the transactions queued while a commit is
/// being made to disk are run next and made durable by a single commit (one fsync for the whole batch). A
/// transaction that throws makes the batch fall back to one commit per transaction, so its writes vanish and the
/// others' stay. Every caller is answered only after the commit that holds its writes has returned. Reads use a small
/// pool of separate connections, which WAL lets run beside the writer.
public final class SQLiteStore: AuthStore {
    private let writer: SQLiteConnection
    private let readers: [SQLiteConnection]
    private let nextReader = Atomic<Int>(0)
    private let queue: WriteQueue
    private let loop: Task<Void, Never>
    private let logger: Logger

    /// Opens (creating if needed) the database file and brings its schema up to date.
    /// - Parameters:
    ///   - path: the database file, or `nil` for a private in-memory database (tests).
    ///   - readers: number of read connections.
    ///   - logger: where driver messages go (queries are never logged: binds may be secret).
    public init(path: String?, readers readerCount: Int = 4, logger: Logger) async throws {
        self.logger = logger
        let storage: SQLiteConnection.Storage = path.map { .file(path: $0) } ?? .memory
        let writer = try await SQLiteConnection.open(
            storage: storage, threadPool: .singleton, logger: logger, on: MultiThreadedEventLoopGroup.singleton.any()
        ).get()
        let wdb = writer.sql(queryLogLevel: nil)
        if path != nil {
            _ = try await wdb.raw("PRAGMA journal_mode = WAL").all()
        }
        try await wdb.raw("PRAGMA synchronous = FULL").run()
        try await wdb.raw("PRAGMA busy_timeout = 10000").run()
        try await wdb.raw("PRAGMA foreign_keys = ON").run()
        _ = try await Migrations.run(on: wdb) { db, body in
            try await db.raw("BEGIN IMMEDIATE").run()
            do {
                try await body()
                try await db.raw("COMMIT").run()
            } catch {
                try? await db.raw("ROLLBACK").run()
                throw error
            }
        }
        var readers: [SQLiteConnection] = []
        if path != nil {
            for _ in 0..<max(1, readerCount) {
                let r = try await SQLiteConnection.open(
                    storage: storage, threadPool: .singleton, logger: logger, on: MultiThreadedEventLoopGroup.singleton.any()
                ).get()
                try await r.sql(queryLogLevel: nil).raw("PRAGMA busy_timeout = 10000").run()
                readers.append(r)
            }
        } else {
            readers = [writer]  // a private in-memory database exists on one connection only
        }
        self.writer = writer
        self.readers = readers
        let queue = WriteQueue()
        self.queue = queue
        self.loop = Task { await Self.commitLoop(queue: queue, db: wdb, logger: logger) }
    }

    public func write<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) async throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let outcome = JobOutcome<T>()
            let job = WriteJob(
                execute: { tx in
                    do {
                        outcome.set(.success(try await body(tx)))
                        return true
                    } catch {
                        outcome.set(.failure(error))
                        return false
                    }
                },
                complete: { commitError in
                    if let commitError { return continuation.resume(throwing: commitError) }
                    switch outcome.get() {
                    case .success(let value): continuation.resume(returning: value)
                    case .failure(let error): continuation.resume(throwing: error)
                    case nil: continuation.resume(throwing: StoreError.closed)
                    }
                }
            )
            if !queue.enqueue(job) { continuation.resume(throwing: StoreError.closed) }
        }
    }

    public func read<T: Sendable>(_ body: @escaping @Sendable (any StoreReader) async throws -> T) async throws -> T {
        let index = nextReader.wrappingAdd(1, ordering: .relaxed).oldValue
        let connection = readers[index % readers.count]
        return try await body(SQLQueries(db: connection.sql(queryLogLevel: nil)))
    }

    public func close() async throws {
        queue.finish()
        await loop.value
        for r in readers where r !== writer { try await r.close() }
        try await writer.close()
    }

    private static func commitLoop(queue: WriteQueue, db: any SQLDatabase, logger: Logger) async {
        for await _ in queue.signals {
            while true {
                let batch = queue.drain(max: 512)
                if batch.isEmpty { break }
                await commit(batch, db: db, logger: logger)
            }
        }
    }

    /// Fast path: the whole batch in one transaction, no savepoints. If any job throws, the batch is rolled back
    /// and every job runs again in a transaction of its own (the closures only read and write through the
    /// transaction, so running one again is safe), so a failing job never takes the others down.
    private static func commit(_ batch: [WriteJob], db: any SQLDatabase, logger: Logger) async {
        let tx = SQLQueries(db: db)
        do {
            try await db.raw("BEGIN IMMEDIATE").run()
            var allSucceeded = true
            for job in batch where !(await job.execute(tx)) {
                allSucceeded = false
                break
            }
            if allSucceeded {
                try await db.raw("COMMIT").run()
                for job in batch { job.complete(nil) }
                return
            }
            try await db.raw("ROLLBACK").run()
        } catch {
            logger.error("sqlite write batch failed", metadata: ["error": "\(error)"])
            try? await db.raw("ROLLBACK").run()
            if batch.count == 1 {
                batch[0].complete(error)
                return
            }
        }
        for job in batch {
            do {
                try await db.raw("BEGIN IMMEDIATE").run()
                if await job.execute(tx) {
                    try await db.raw("COMMIT").run()
                } else {
                    try await db.raw("ROLLBACK").run()
                }
                job.complete(nil)
            } catch {
                logger.error("sqlite write failed", metadata: ["error": "\(error)"])
                try? await db.raw("ROLLBACK").run()
                job.complete(error)
            }
        }
    }
}
