/// The store's statements, written once for every SQL engine (placeholders `?`): nothing of its own, only the
/// aggregates' protocols composed, each implemented for every ``SQLBacked`` type in `<Protocol>+SQL.swift` (users with
/// their identities, tokens, code sessions, outbox, counters, config and keys, second factors, oob codes, credentials,
/// the audit log, listings, import and export, the console, stats, passkeys, tenants).
struct SQLQueries: StoreTransaction, SQLBacked {
    let db: any SQLExecutor
}
