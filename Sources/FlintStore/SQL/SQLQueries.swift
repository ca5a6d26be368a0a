/// The store's statements, written once for every SQL engine (placeholders `?`): the aggregates implemented in its
/// extensions (`SQLQueries+….swift`: users with their identities, tokens, listings, import, the console), and those
/// implemented for every ``SQLBacked`` type (`<Protocol>+SQL.swift`: outbox, oob codes, audit, credentials, stats,
/// passkeys, second factors, counters, code sessions, config and keys).
struct SQLQueries: StoreTransaction, SQLBacked {
    let db: any SQLExecutor
}
