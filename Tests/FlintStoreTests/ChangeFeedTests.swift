import FlintStore
import Foundation
import Testing

@Suite("Change announcements between nodes sharing a store")
struct ChangeFeedTests {
    @Test("a change announced by one node is heard by every subscriber of another", arguments: Engine.all)
    func announcedChangesAreHeard(engine: Engine) async throws {
        let (first, location) = try await makeStore(engine)
        // PostgreSQL: a second store object on the same database is a second node. SQLite announces within its
        // process, so nodes sharing an embedded database share its store object.
        let second = engine == .postgres ? try await makeStore(engine, location: location).0 : first
        var heard = second.changes().makeAsyncIterator()
        var alsoHeard = second.changes().makeAsyncIterator()
        let probe = StoreChange(rawValue: "probe")
        // PostgreSQL's listener connects in the background: announce until it is heard.
        let announcer = Task {
            for _ in 0..<100 {
                await first.announce(probe)
                try await Task.sleep(for: .milliseconds(100))
            }
        }
        var before: [StoreChange] = []
        while let change = await heard.next(), change != probe { before.append(change) }
        if engine == .postgres {
            #expect(Set(before) == [.config, .keys, .tenants], "the listener hands on every kind of change once when it starts listening")
        }
        while let change = await alsoHeard.next(), change != probe {}
        announcer.cancel()
        if engine == .postgres { try await second.close() }
        try await first.close()
    }

    @Test("closing a store ends its subscriptions", arguments: Engine.all)
    func closingEndsSubscriptions(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        var changes = store.changes().makeAsyncIterator()
        try await store.close()
        #expect(await changes.next() == nil)
    }
}
