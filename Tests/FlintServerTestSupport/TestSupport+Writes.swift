package import FlintStore
package import FlintTesting

/// A node's store that tells an `EventLog` of every write it ends (committed or failed): a test waits for the node's
/// work in the background (an email's delivery, a flush) by being told of its writes, not by polling.
package struct WriteSignallingStore: AuthStore {
    package let base: any AuthStore
    package let ended: EventLog<Void>

    package init(base: any AuthStore, ended: EventLog<Void>) {
        (self.base, self.ended) = (base, ended)
    }

    package func write<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) async throws -> T) async throws -> T {
        defer { ended.record(()) }
        return try await base.write(body)
    }

    package func read<T: Sendable>(_ body: @escaping @Sendable (any StoreReader) async throws -> T) async throws -> T {
        try await base.read(body)
    }

    package func close() async throws { try await base.close() }

    package func announce(_ change: StoreChange) async { await base.announce(change) }

    package func changes() -> AsyncStream<StoreChange> { base.changes() }
}

extension TestNode {
    /// Checks `done` now and again each time the node ends a write, until it holds: for a result of the node's own
    /// background work, which ends with a write. `false` when `done` still fails after the node wrote nothing more for
    /// the wait's limit (a node that `TestNode.make` did not build never tells of its writes).
    package func afterWrites(until done: () async throws -> Bool) async throws -> Bool {
        while true {
            // Counted before the check: a write that ends during it resumes the wait at once.
            let seen = writes.events.count
            if try await done() { return true }
            if await writes.wait(for: seen + 1).count <= seen { return try await done() }
        }
    }
}
