import ArgumentParser
import FlintCore
import FlintServer
import FlintStore
import Logging

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Where the data lives; shared by every command that opens the store.
struct StoreOptions: ParsableArguments {
    @Option(name: .long, help: "Data directory holding the SQLite database (env FLINT_DATA).")
    var data: String = FlintEnvironment.string("data") ?? ".flint"

    @Option(
        name: .long,
        help:
            "PostgreSQL URL, postgres://user:password@host:port/database?sslmode=disable|prefer|require, or postgres://user@/database?host=/run/postgresql for the server's Unix-domain socket (env FLINT_DATABASE_URL); replaces the SQLite file."
    )
    var database: String?

    @Option(
        name: .long,
        help: "PostgreSQL connection pool size; `flint serve` opens them at start and keeps them (env FLINT_DATABASE_POOL).")
    var databasePool: Int = FlintEnvironment.int("databasePool", default: 20)

    @Option(
        name: .long,
        help:
            "How many distinct statements each PostgreSQL connection prepares, so the server parses and plans them once; 0 behind a pooler that does not keep prepared statements, such as PgBouncer in transaction mode before 1.21 (env FLINT_DATABASE_PREPARED)."
    )
    var databasePrepared: Int = FlintEnvironment.int("databasePrepared", default: 500)

    @Option(
        name: .long,
        help:
            "Seconds an idle PostgreSQL connection of `flint serve` waits before a keep-alive query (SELECT 1), which notices a link dropped silently by a NAT or firewall; 0 for none, relying on the server's tcp_keepalives_idle (env FLINT_DATABASE_KEEPALIVE)."
    )
    var databaseKeepalive: Int = FlintEnvironment.int("databaseKeepalive", default: 30)

    @Option(
        name: .long,
        help:
            "File holding the master key that seals the store's secrets, base64 of 32 bytes from `flint keys master-key` (env FLINT_MASTER_KEY_FILE, or the key itself in FLINT_MASTER_KEY; default: DATA/master.key, created in dev mode)."
    )
    var masterKeyFile: String?

    /// The PostgreSQL URL in force, if any.
    var databaseURL: String? { database ?? FlintEnvironment.string("databaseUrl") }

    func validate() throws {
        try FlintEnvironment.refuseMalformed()
        if let url = databaseURL, PostgresStore.Location(url: url) == nil {
            throw ValidationError("--database must be a postgres://user:password@host:port/database URL")
        }
        guard (1...1000).contains(databasePool) else { throw ValidationError("--database-pool must be between 1 and 1000") }
        guard (0...10000).contains(databasePrepared) else { throw ValidationError("--database-prepared must be between 0 and 10000") }
        guard (0...86_400).contains(databaseKeepalive) else { throw ValidationError("--database-keepalive must be between 0 and 86400") }
    }

    /// Opens the store: PostgreSQL when a URL is given, else SQLite in the data directory (created 0700 when
    /// needed). The database holds the signing keys and the server secret, so everything Flint creates is private
    /// to its user (umask 077). `sqliteCacheMiB` sizes SQLite's writer page cache (bulk imports). A server (`serving`)
    /// opens its PostgreSQL pool at start and keeps it; a command opens connections as it needs them.
    func open(logger: Logger, sqliteCacheMiB: Int? = nil, serving: Bool = false) async throws -> any AuthStore {
        if let url = databaseURL, let location = PostgresStore.Location(url: url) {
            return try await PostgresStore(
                location: location, maximumConnections: databasePool, preparedStatements: databasePrepared, keepingConnections: serving,
                keepAlive: databaseKeepalive > 0 ? .seconds(databaseKeepalive) : nil, logger: logger)
        }
        createPrivateFilesOnly()
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return try await SQLiteStore(path: databasePath, writerCacheMiB: sqliteCacheMiB, logger: logger)
    }

    /// Where the store is, for people (never prints a password).
    var describe: String {
        if let url = databaseURL, let l = PostgresStore.Location(url: url) {
            if let directory = l.socketDirectory { return "postgres://\(l.user)@/\(l.database)?host=\(directory) (port \(l.port))" }
            return "postgres://\(l.user)@\(l.host):\(l.port)/\(l.database)"
        }
        return data
    }

    var databasePath: String { data.hasSuffix("/") ? data + "flint.sqlite" : data + "/flint.sqlite" }
}

extension StoreOptions {
    /// Opens the store (quietly; SQLite with a page cache of `sqliteCacheMiB` when given), runs `body` on it and
    /// closes it, also when `body` fails; a failure of `body` is thrown as `mappingErrors` turns it (a command's own
    /// words for the store's errors).
    func withStore<T>(
        sqliteCacheMiB: Int? = nil, mappingErrors: (any Error) -> any Error = { $0 }, _ body: (any AuthStore) async throws -> T
    ) async throws -> T {
        let db = try await open(logger: quietLogger(), sqliteCacheMiB: sqliteCacheMiB)
        let result: T
        do {
            result = try await body(db)
        } catch {
            try? await db.close()
            throw mappingErrors(error)
        }
        try await db.close()
        return result
    }

    /// ``withStore(sqliteCacheMiB:mappingErrors:_:)`` for an operator's change from the command line: audited by the
    /// actor `cli`, Firebase's errors shown as usage errors.
    func asOperator<T: Sendable>(_ body: @escaping @Sendable (any AuthStore) async throws -> T) async throws -> T {
        try await withStore(mappingErrors: { ($0 as? AuthError).map { ValidationError($0.message) } ?? $0 }) { db in
            try await AuditOrigin.$current.withValue(AuditOrigin(actor: "cli")) { try await body(db) }
        }
    }
}
