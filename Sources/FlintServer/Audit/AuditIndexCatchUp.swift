import FlintStore

/// Brings the audit log's account index up to the log (``FlintStore/AuthStore/catchUpAuditIndex(batch:maxBatches:)``)
/// every second, off the requests' transactions: a sign-in's commit appends its event and writes no index page.
struct AuditIndexCatchUp: StoreFlushing {
    func flush(to store: any AuthStore) async throws {
        _ = try await store.catchUpAuditIndex()
    }
}
