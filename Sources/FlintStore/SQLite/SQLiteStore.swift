public import Logging

/// The embedded store: one SQLite file in WAL mode with `synchronous=FULL`, through the system's libsqlite3.
///
/// All writes go through one writer connection that *group-commits*: the transactions queued while a commit is
/// being made to disk are run next and made durable by a single commit (one fsync for the whole batch). A
/// transaction that throws makes the batch fall back to one commit per transaction, so its writes vanish and the
/// others' stay. Every caller is answered only after the commit that holds its writes has returned.
///
/// The writer connection has its own serial executor, where the commit loop runs, so a transaction's statements
/// execute back to back with no thread hop and an fsync never blocks the shared cooperative pool. Reads are queued to a
/// few read connections, each drained by a loop on an executor of its own (``ReaderPool``); WAL lets them run beside
/// the writer.
public final class SQLiteStore: AuthStore {
    private let writer: Connection
    /// Read connections, or `nil` for an in-memory database (which exists on the writer's connection only).
    private let readers: ReaderPool?
    private let queue: WriteQueue
    private let loop: Task<Void, Never>
    private let feed = ChangeFeed()

    /// A connection and the executor that owns it.
    struct Connection: Sendable {
        let database: SQLiteDatabase
        let executor: ThreadExecutor

        /// Runs `body` on the connection's executor.
        func run<T: Sendable>(_ body: @escaping @Sendable (SQLiteDatabase) async throws -> T) async throws -> T {
            try await withTaskExecutorPreference(executor) { try await body(database) }
        }
    }

    /// Opens (creating if needed) the database file and brings its schema up to date.
    /// - Parameters:
    ///   - path: the database file, or `nil` for a private in-memory database (tests).
    ///   - readers: read connections, each with its own executor thread (default 2).
    ///   - replayingWrites: a test mode that makes replays visible: every write closure runs, is rolled back, and
    ///     runs again on the same state (as a batch that falls back, or a PostgreSQL retry, would run it); a closure
    ///     that succeeds once and fails the other time fails with ``StoreError/notReplayable``, and one with a side
    ///     effect outside its transaction shows it twice.
    ///   - writerCacheMiB: the writer connection's page cache, when not SQLite's default (2 MiB). Bulk imports give it
    ///     more, so that a large transaction's index pages stay in memory until its commit.
    ///   - logger: where store failures are reported (statements and values are never logged).
    public init(
        path: String?, readers readerCount: Int = 2, replayingWrites: Bool = false, writerCacheMiB: Int? = nil, logger: Logger
    ) async throws {
        let writer = Connection(database: try SQLiteDatabase(path: path), executor: ThreadExecutor(label: "flint.sqlite.writer"))
        try await writer.run { db in
            if path != nil { _ = try db.querySync("PRAGMA journal_mode = WAL", []) }
            try db.execute("PRAGMA synchronous = FULL")
            if let writerCacheMiB { try db.execute("PRAGMA cache_size = -\(writerCacheMiB * 1024)") }
            try db.execute("PRAGMA foreign_keys = ON")
            _ = try await Migrations.run(on: db) { body in
                try db.execute("BEGIN IMMEDIATE")
                do {
                    try await body()
                    try db.execute("COMMIT")
                } catch {
                    db.rollbackIfOpen(logger: logger)
                    throw error
                }
            }
        }
        self.writer = writer
        self.readers = path.map { ReaderPool(path: $0, count: readerCount, logger: logger) }
        let queue = WriteQueue()
        self.queue = queue
        self.loop = Task(executorPreference: writer.executor) {
            await Self.commitLoop(queue: queue, db: writer.database, replaying: replayingWrites, logger: logger)
        }
    }

    public func write<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) async throws -> T) async throws -> T {
        // The closure runs on the writer's task: the request's audit origin goes with it.
        let origin = AuditOrigin.current
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let outcome = JobOutcome<T>()
            let job = WriteJob(
                execute: { tx in
                    do {
                        outcome.set(.success(try await AuditOrigin.$current.withValue(origin) { try await body(tx) }))
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
        // The closure runs on a reader's (or the writer's) task: a request in a tenant takes its origin (its tenant)
        // along; the default tenant's requests bind nothing.
        let origin = AuditOrigin.current
        guard !origin.tenant.isDefault else {
            guard let readers else { return try await writer.run { db in try await body(SQLQueries(db: db)) } }
            return try await readers.with { db in try await body(SQLQueries(db: db)) }
        }
        let run: @Sendable (SQLiteDatabase) async throws -> T = { db in
            try await AuditOrigin.$current.withValue(origin) { try await body(SQLQueries(db: db)) }
        }
        guard let readers else { return try await writer.run(run) }
        return try await readers.with(run)
    }

    /// Hands `change` to this process's subscribers (an embedded database has no other nodes to tell).
    public func announce(_ change: StoreChange) async { feed.publish(change) }

    public func changes() -> AsyncStream<StoreChange> { feed.subscribe() }

    public func close() async throws {
        feed.finish()
        queue.finish()
        await loop.value
        await readers?.close()
        try await writer.run { $0.close() }
    }

    private static func commitLoop(queue: WriteQueue, db: SQLiteDatabase, replaying: Bool, logger: Logger) async {
        for await _ in queue.signals {
            while true {
                let batch = queue.drain(max: replaying ? 1 : 512)
                if batch.isEmpty { break }
                if replaying {
                    await commitReplaying(batch[0], db: db, logger: logger)
                } else {
                    await commit(batch, db: db, logger: logger)
                }
            }
        }
    }

    /// The test mode's commit: the job runs, is rolled back to a savepoint, and runs again; the second run's writes
    /// commit when both runs agreed on success.
    private static func commitReplaying(_ job: WriteJob, db: SQLiteDatabase, logger: Logger) async {
        let tx = SQLQueries(db: db)
        do {
            try db.execute("BEGIN IMMEDIATE")
            try db.execute("SAVEPOINT flint_replay")
            let first = await job.execute(tx)
            try db.execute("ROLLBACK TO flint_replay")
            try db.execute("RELEASE flint_replay")
            let second = await job.execute(tx)
            guard first == second else {
                logger.error("a write closure answered differently when run again", metadata: ["first": "\(first)", "second": "\(second)"])
                db.rollbackIfOpen(logger: logger)
                return job.complete(StoreError.notReplayable)
            }
            try db.execute(second ? "COMMIT" : "ROLLBACK")
            job.complete(nil)
        } catch {
            logger.error("sqlite write failed", metadata: ["error": "\(error)"])
            db.rollbackIfOpen(logger: logger)
            job.complete(error)
        }
    }

    /// Fast path: the whole batch in one transaction. If any job throws, the batch is rolled back and every job
    /// runs again in a transaction of its own (the closures only read and write through the transaction, so
    /// running one again is safe), so a failing job never takes the others down.
    private static func commit(_ batch: [WriteJob], db: SQLiteDatabase, logger: Logger) async {
        let tx = SQLQueries(db: db)
        do {
            try db.execute("BEGIN IMMEDIATE")
            var allSucceeded = true
            for job in batch where !(await job.execute(tx)) {
                allSucceeded = false
                break
            }
            if allSucceeded {
                try db.execute("COMMIT")
                for job in batch { job.complete(nil) }
                return
            }
            try db.execute("ROLLBACK")
        } catch {
            logger.error("sqlite write batch failed", metadata: ["error": "\(error)"])
            db.rollbackIfOpen(logger: logger)
            if batch.count == 1 {
                batch[0].complete(error)
                return
            }
        }
        for job in batch {
            do {
                try db.execute("BEGIN IMMEDIATE")
                if await job.execute(tx) {
                    try db.execute("COMMIT")
                } else {
                    try db.execute("ROLLBACK")
                }
                job.complete(nil)
            } catch {
                logger.error("sqlite write failed", metadata: ["error": "\(error)"])
                db.rollbackIfOpen(logger: logger)
                job.complete(error)
            }
        }
    }
}
