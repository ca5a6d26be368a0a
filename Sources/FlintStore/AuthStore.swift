/// Everything Flint persists, behind one protocol. Implementations: SQLite (embedded, default) and PostgreSQL;
/// both run the same migrations and the same statements (``SQLQueries``, which composes each aggregate's protocol as
/// implemented once in `SQL/<Protocol>+SQL.swift`).
///
/// Writes go through ``write(_:)``: the closure runs inside a transaction and its result is returned only after
/// the transaction is durable. Keep closures short (no signing, no network): they hold the writer.
public protocol AuthStore: Sendable {
    /// Runs `body` in a durable transaction. If `body` throws, none of its writes happen.
    func write<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) async throws -> T) async throws -> T

    /// Runs read-only `body` against a consistent snapshot (never writes).
    func read<T: Sendable>(_ body: @escaping @Sendable (any StoreReader) async throws -> T) async throws -> T

    /// Closes connections; the store is unusable afterwards.
    func close() async throws

    /// Tells every node sharing this store that cached state changed; call it after the change is committed.
    /// PostgreSQL: a `NOTIFY` every node's ``changes()`` hears; SQLite: this process's subscribers. A lost
    /// announcement (logged by the store) only delays the change until the nodes' periodic reload.
    func announce(_ change: StoreChange) async

    /// The changes announced by any node sharing this store (SQLite: by this process), until the store closes.
    func changes() -> AsyncStream<StoreChange>
}

/// Every query, composed from the aggregates' read protocols (Protocols/): users, tokens, code sessions, outbox,
/// counters, config and keys, second factors, oob codes, credentials, the audit log, user listings, bulk import and export,
/// the web console's operators and sessions, the dashboard's counters, passkeys, tenants, event webhooks.
public protocol StoreReader: UsersReads, TokensReads, CodeSessionsReads, OutboxReads, CountersReads, ConfigReads, SecondFactorsReads, OobCodesReads,
    CredentialsReads, AuditReads, UserListingReads, UserImportReads, ConsoleReads, StatsReads, PasskeysReads,
    TenantsReads, WebhooksReads
{}

/// Every write, available inside ``AuthStore/write(_:)``, composed from the aggregates' write protocols.
public protocol StoreTransaction: StoreReader, UsersWrites, TokensWrites, CodeSessionsWrites, OutboxWrites, CountersWrites, ConfigWrites,
    SecondFactorsWrites, OobCodesWrites, CredentialsWrites, AuditWrites, UserListingWrites, UserImportWrites, ConsoleWrites, StatsWrites,
    PasskeysWrites, TenantsWrites, WebhooksWrites
{}

/// Failures the store reports in its own terms (not SQL).
public enum StoreError: Error, Sendable, Equatable {
    /// A uniqueness rule would break: what was taken.
    case conflict(StoreConflict)
    /// The row to change does not exist.
    case notFound
    /// The store has been closed.
    case closed
    /// The stored schema is newer than this build understands.
    case schemaTooNew(found: Int, supported: Int)
    /// Test mode (``SQLiteStore/init(path:readers:replayingWrites:logger:)``): a write closure succeeded once and
    /// failed the other time on the same state, so a replayed transaction would not mean what it meant.
    case notReplayable
}
