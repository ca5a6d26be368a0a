/// The audit log's account index is written after the events' own transactions (a sign-in's commit appends its event
/// and nothing else of the log): ``catchUpAuditIndex(batch:maxBatches:)`` brings it up to the log, in transactions of
/// `batch` events. Nothing is lost in between or in a crash: the events are committed with what they record, and an
/// account's listing reads the events past the index's progress from the log itself (``AuditReads``).
extension AuthStore {
    /// Indexes the events committed since the last catch-up, a batch per transaction, at most `maxBatches`; returns
    /// how many events it passed.
    public func catchUpAuditIndex(batch: Int = 500, maxBatches: Int = 200) async throws -> Int {
        // An idle node takes no lock and no write transaction.
        guard try await read({ try await $0.auditIndexIsBehind() }) else { return 0 }
        let horizon = try await write { try await $0.auditIndexHorizon() }
        var passed = 0
        for _ in 0..<maxBatches {
            let done = try await write { try await $0.indexAuditEvents(through: horizon, limit: batch) }
            passed += done
            if done < batch { break }
        }
        return passed
    }
}
