public import Logging
import NIOCore
import NIOSSL
import PostgresNIO
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The shared store for many nodes: PostgreSQL through PostgresNIO's connection pool, with the same migrations
/// and statements as SQLite. Every write runs in its own transaction (READ COMMITTED; a code is spent by one
/// conditional UPDATE, so one winner); one that loses a race (a unique key taken meanwhile, a serialization
/// failure, a deadlock) is run again from the start, up to three times.
public final class PostgresStore: AuthStore {
    private let client: PostgresClient
    /// The statements' PostgreSQL texts and the names of those prepared on every connection.
    private let statements: PostgresStatements
    private let runner: Task<Void, Never>
    private let logger: Logger
    private let closed = Atomic<Bool>(false)
    private let feed = ChangeFeed()
    private let listener: Task<Void, Never>
    /// The kept pool's keep-alive sweep (``sweep(client:connections:every:logger:)``), if any.
    private let keeper: Task<Void, Never>?
    /// The channel of ``announce(_:)``'s notifications.
    static let changeChannel = "flint_changes"

    /// Connection settings read from a `postgres://user:password@host:port/database?sslmode=...` URL, or — for a
    /// server on the same machine — `postgres://user@/database?host=/run/postgresql&port=5432` (libpq's form: a
    /// `host` that is a directory names the server's Unix-domain socket, `.s.PGSQL.<port>` in it; no TCP, no TLS).
    public struct Location: Sendable, Equatable {
        /// The server's host name or address, or the socket's directory.
        public var host: String
        public var port: Int
        public var user: String
        public var password: String?
        public var database: String
        /// `disable`, `prefer` or `require` (also `verify-full`, treated as `require` with verification); not used
        /// over a Unix-domain socket.
        public var sslMode: String

        /// The directory of the server's Unix-domain socket, when `host` is one (it starts with `/`).
        public var socketDirectory: String? { host.hasPrefix("/") ? host : nil }

        /// Parses a URL; `nil` when it is not a `postgres://` or `postgresql://` URL with a user and database.
        public init?(url: String) {
            guard let parts = URLComponents(string: url), parts.scheme == "postgres" || parts.scheme == "postgresql",
                let user = parts.user, !user.isEmpty
            else { return nil }
            // A `host` parameter wins over the URL's host, as libpq reads it.
            let host = parts.queryItems?.first { $0.name == "host" }?.value ?? parts.host ?? ""
            guard !host.isEmpty else { return nil }
            let database = String(parts.path.drop(while: { $0 == "/" }))
            guard !database.isEmpty else { return nil }
            self.host = host
            self.port = parts.port ?? parts.queryItems?.first { $0.name == "port" }?.value.flatMap { Int($0) } ?? 5432
            self.user = user
            self.password = parts.password
            self.database = database
            self.sslMode = parts.queryItems?.first { $0.name == "sslmode" }?.value ?? "prefer"
        }
    }

    /// Connects (lazily, through the pool), then brings the schema up to date under an advisory lock so that nodes
    /// starting together migrate once.
    /// - Parameters:
    ///   - location: where the database is.
    ///   - maximumConnections: the pool's size.
    ///   - startTimeout: how long to keep trying to reach the database at start before giving up (the pool would
    ///     otherwise retry quietly for a minute on a wrong address, password or TLS setting).
    ///   - preparedStatements: how many distinct statements each connection prepares (``PostgresStatements``); 0 for
    ///     none, behind a pooler that does not keep prepared statements.
    ///   - keepingConnections: open the pool's connections at start and keep them (a server); otherwise they open on
    ///     demand and close after a minute unused (a command).
    ///   - keepAlive: how often idle connections run `SELECT 1`, so that a NAT or firewall does not drop them silently
    ///     and a dead one is noticed; `nil` for never. A kept pool is swept by a task of its own every `keepAlive`
    ///     (every connection at once); PostgresNIO's own keep-alive, used otherwise, gives a connection a timer each
    ///     time it goes back to the pool and takes it back at the next lease — a few tasks started and cancelled per
    ///     store operation (as its idle timeout does for connections that are not kept), about 100 µs of a node's CPU
    ///     per operation here.
    ///   - logger: where driver messages go (statements and values are never logged).
    public init(
        location: Location, maximumConnections: Int = 20, preparedStatements: Int = 500, keepingConnections: Bool = false,
        keepAlive: Duration? = .seconds(30), startTimeout: Duration = .seconds(20), logger: Logger
    ) async throws {
        let tls: PostgresClient.Configuration.TLS
        switch location.sslMode {
        case "disable": tls = .disable
        case "require":
            var config = TLSConfiguration.makeClientConfiguration()
            config.certificateVerification = .none
            tls = .require(config)
        case "verify-ca", "verify-full": tls = .require(.makeClientConfiguration())
        default:
            var config = TLSConfiguration.makeClientConfiguration()
            config.certificateVerification = .none
            tls = .prefer(config)
        }
        var configuration =
            if let directory = location.socketDirectory {
                PostgresClient.Configuration(
                    unixSocketPath: directory + "/.s.PGSQL.\(location.port)", username: location.user, password: location.password,
                    database: location.database)
            } else {
                PostgresClient.Configuration(
                    host: location.host, port: location.port, username: location.user, password: location.password,
                    database: location.database, tls: tls)
            }
        configuration.options.maximumConnections = maximumConnections
        // The pool requires fewer kept connections than its maximum; the one connection above them may idle out.
        configuration.options.minimumConnections = keepingConnections ? max(0, maximumConnections - 1) : 0
        configuration.options.keepAliveBehavior = keepingConnections ? nil : keepAlive.map { .init(frequency: $0) }
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.client = client
        self.statements = PostgresStatements(capacity: preparedStatements)
        self.logger = logger
        self.runner = Task { await client.run() }
        do {
            try await Self.within(startTimeout, location: location) {
                try await Self.migrate(client: client, logger: logger)
            }
        } catch {
            runner.cancel()
            throw error
        }
        let feed = self.feed
        self.listener = Task { await Self.listen(client: client, feed: feed, logger: logger) }
        if keepingConnections, let keepAlive {
            self.keeper = Task { await Self.sweep(client: client, connections: max(1, maximumConnections - 1), every: keepAlive, logger: logger) }
        } else {
            self.keeper = nil
        }
    }

    /// Holds one connection listening on ``changeChannel`` and hands what it hears to the feed; reconnects after
    /// a second when the connection drops. Each time it starts listening (at start, after a drop) it hands on every
    /// kind of change once, so the node re-reads what may have been announced while nobody listened, instead of
    /// waiting for its periodic reload.
    private static func listen(client: PostgresClient, feed: ChangeFeed, logger: Logger) async {
        while !Task.isCancelled {
            do {
                try await client.withConnection { connection in
                    try await connection.listen(on: changeChannel) { notifications in
                        for change in [StoreChange.config, .keys, .tenants] { feed.publish(change) }
                        for try await notification in notifications { feed.publish(StoreChange(rawValue: notification.payload)) }
                    }
                }
            } catch {
                if Task.isCancelled { return }
                logger.warning("postgres change listener stopped; reconnecting", metadata: ["errorType": "\(type(of: error))"])
            }
            try? await Task.sleep(for: .seconds(1))
        }
    }

    /// Every `interval`, runs `SELECT 1` on up to `connections` pooled connections at once (each lease takes an idle
    /// one, so the whole kept pool is touched; a busy one needs no ping). A failed ping is logged; the pool replaces
    /// a connection that broke.
    private static func sweep(client: PostgresClient, connections: Int, every interval: Duration, logger: Logger) async {
        while !Task.isCancelled {
            do { try await Task.sleep(for: interval) } catch { return }
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<connections {
                    group.addTask {
                        do {
                            try await client.withConnection { connection in _ = try await connection.query("SELECT 1", logger: logger) }
                        } catch {
                            logger.debug("postgres keep-alive failed", metadata: ["errorType": "\(type(of: error))"])
                        }
                    }
                }
            }
        }
    }

    /// Sends a `NOTIFY` on ``changeChannel``: every node's listener (this one's too) hears it.
    public func announce(_ change: StoreChange) async {
        guard !closed.load(ordering: .relaxed) else { return }
        do {
            try await client.withConnection { connection in
                try await PostgresExecutor(connection: connection, statements: statements, logger: logger).run(
                    .read("SELECT pg_notify(?, ?)", [.text(Self.changeChannel), .text(change.rawValue)]))
            }
        } catch {
            logger.warning("postgres change notification failed", metadata: ["change": "\(change)", "errorType": "\(type(of: error))"])
        }
    }

    public func changes() -> AsyncStream<StoreChange> { feed.subscribe() }

    /// Why the store could not start.
    public struct StartError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Runs `body`, or fails after `limit` with a message naming the database (never its password).
    private static func within(_ limit: Duration, location: Location, _ body: @escaping @Sendable () async throws -> Void) async throws {
        try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                try await body()
                return true
            }
            group.addTask {
                try await Task.sleep(for: limit)
                return false
            }
            let finished = try await group.next() ?? false
            group.cancelAll()
            guard finished else {
                throw StartError(
                    description: "could not reach PostgreSQL at \(location.host):\(location.port)/\(location.database) as \(location.user) "
                        + "(sslmode=\(location.sslMode)) within \(limit): check the address, the password and whether the server requires TLS"
                )
            }
        }
    }

    /// The session advisory lock key under which a node migrates: one node at a time, the others wait for it.
    public static let migrationLock: Int64 = 7_256_213

    /// Brings the schema up to date under a session advisory lock, so nodes starting together migrate once.
    private static func migrate(client: PostgresClient, logger: Logger) async throws {
        try await client.withConnection { connection in
            // Nothing is prepared while the schema changes.
            let db = PostgresExecutor(connection: connection, statements: PostgresStatements(capacity: 0), logger: logger)
            try await db.run(.command("SELECT pg_advisory_lock(\(migrationLock))"))
            do {
                _ = try await Migrations.run(on: db) { body in
                    try await db.run(.command("BEGIN"))
                    do {
                        try await body()
                        try await db.run(.command("COMMIT"))
                    } catch {
                        await Self.rollback(db, logger: logger)
                        throw error
                    }
                }
                try await db.run(.command("SELECT pg_advisory_unlock(\(migrationLock))"))
            } catch {
                do {
                    try await db.run(.command("SELECT pg_advisory_unlock(\(migrationLock))"))
                } catch let unlockError {
                    logger.warning("postgres advisory unlock failed", metadata: ["errorType": "\(type(of: unlockError))"])
                }
                throw error
            }
        }
    }

    public func write<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) async throws -> T) async throws -> T {
        guard !closed.load(ordering: .relaxed) else { throw StoreError.closed }
        var attempt = 0
        while true {
            attempt += 1
            do {
                return try await client.withConnection { connection in
                    let db = PostgresTransaction(PostgresExecutor(connection: connection, statements: statements, logger: logger))
                    do {
                        let value = try await body(SQLQueries(db: db))
                        try await db.commit()
                        return value
                    } catch {
                        await Self.rollback(db, logger: logger)
                        throw error
                    }
                }
            } catch let error as PSQLError where attempt < 3 && Self.isRetryable(error) {
                continue
            } catch StoreError.conflict where attempt < 3 {
                // Another node inserted the same number or email between our read and our insert: run the
                // transaction again, and it will see that row (a real conflict simply recurs and is thrown).
                continue
            }
        }
    }

    /// Rolls back after a failure; a failed rollback is logged (the connection goes back to the pool, which resets
    /// or closes a broken one), not thrown over the failure being handled.
    private static func rollback(_ db: PostgresTransaction, logger: Logger) async {
        await rollback(logger: logger) { try await db.rollback() }
    }

    private static func rollback(_ db: PostgresExecutor, logger: Logger) async {
        await rollback(logger: logger) { try await db.run(.command("ROLLBACK")) }
    }

    private static func rollback(logger: Logger, _ undo: () async throws -> Void) async {
        do {
            try await undo()
        } catch {
            logger.warning("postgres rollback failed", metadata: ["errorType": "\(type(of: error))"])
        }
    }

    public func read<T: Sendable>(_ body: @escaping @Sendable (any StoreReader) async throws -> T) async throws -> T {
        guard !closed.load(ordering: .relaxed) else { throw StoreError.closed }
        return try await client.withConnection { connection in
            try await body(SQLQueries(db: PostgresExecutor(connection: connection, statements: statements, logger: logger)))
        }
    }

    public func close() async throws {
        closed.store(true, ordering: .relaxed)
        listener.cancel()
        keeper?.cancel()
        feed.finish()
        runner.cancel()
        await runner.value
    }

    /// unique_violation, serialization_failure, deadlock_detected: the transaction lost a race and may be retried.
    private static func isRetryable(_ error: PSQLError) -> Bool {
        guard let state = error.serverInfo?[.sqlState] else { return false }
        return state == "23505" || state == "40001" || state == "40P01"
    }
}
