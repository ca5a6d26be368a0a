import FlintCore
import FlintServer
import FlintServerTestSupport
import FlintStore
import FlintTesting
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Synchronization
import Testing

/// A store whose reads fail while it is down (a database that stopped answering), counting the reads it was asked for.
final class FailingStore: AuthStore {
    let base: any AuthStore
    let down = Mutex(false)
    let reads = Mutex(0)

    struct Unreachable: Error {}

    init(base: any AuthStore) { self.base = base }

    func write<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) async throws -> T) async throws -> T {
        if down.withLock({ $0 }) { throw Unreachable() }
        return try await base.write(body)
    }

    func read<T: Sendable>(_ body: @escaping @Sendable (any StoreReader) async throws -> T) async throws -> T {
        reads.withLock { $0 += 1 }
        if down.withLock({ $0 }) { throw Unreachable() }
        return try await base.read(body)
    }

    func close() async throws { try await base.close() }
    func announce(_ change: StoreChange) async { await base.announce(change) }
    func changes() -> AsyncStream<StoreChange> { base.changes() }
}

/// The load balancers' probes: `/healthz` (the process serves) and `/readyz` (the node should get traffic), answered
/// before the API's middleware in every state of the node.
@Suite struct HealthTests {
    static let ready = #"{"ready":true}"#

    @Test func aServingNodeIsAliveAndReady() async throws {
        try await withFlint { api in
            let live = try await api.call(.get, "/healthz")
            #expect(live.status == .ok && live.text == #"{"status":"ok"}"#)
            let ready = try await api.call(.get, "/readyz")
            #expect(ready.status == .ok && ready.text == Self.ready)
            #expect(ready.headers[.cacheControl] == "no-store" && ready.headers[.contentType] == "application/json")
            let head = try await api.call(.head, "/readyz")
            #expect(head.status == .ok && head.text.isEmpty)
            let post = try await api.call(.post, "/readyz", body: "{}")
            #expect(post.status == .methodNotAllowed && post.headers[.allow] == "GET, HEAD")
        }
    }

    @Test func probesNeedNoCredentialInProductionMode() async throws {
        var settings = ServerSettings()
        (settings.devMode, settings.adminToken, settings.port) = (false, "operator-secret", 0)
        settings.passwordHashParameters = PasswordHashParameters(logN: 10)
        let store = try await SQLiteStore(path: nil, logger: Logger(label: "flint-test"))
        let server = try await FlintServer(settings: settings, store: store, logger: Logger(label: "flint-test"))
        try await server.application.test(.router) { client in
            let refused = try await client.execute(uri: Path.lookup, method: .post, body: ByteBuffer(string: "{}"))
            #expect(refused.status != .ok, "the API itself still wants its key")
            for path in ["/healthz", "/readyz"] {
                #expect(try await client.execute(uri: path, method: .get).status == .ok)
            }
        }
        try await store.close()
    }

    @Test func probesCostOneDatabaseReadPerInterval() async throws {
        let clock = ManualClock(Instant(Date()))
        let base = try await SQLiteStore(path: nil, logger: Logger(label: "flint-test"))
        let store = FailingStore(base: base)
        let readiness = NodeReadiness(clock: clock)
        readiness.serve(store)
        try await Application(responder: NodeResponder(readiness: readiness)).test(.router) { client in
            for round in 1...2 {
                for _ in 0..<300 {
                    let reply = try await client.execute(uri: "/readyz", method: .get)
                    #expect(reply.status == .ok && String(buffer: reply.body) == Self.ready)
                }
                #expect(store.reads.withLock { $0 } == round, "one database check per interval, however many probes")
                clock.advance(by: NodeReadiness.checkInterval)
            }
        }
        try await base.close()
    }

    @Test func anUnreachableDatabaseMakesTheNodeNotReadyAtTheNextCheck() async throws {
        let clock = ManualClock(Instant(Date()))
        let base = try await SQLiteStore(path: nil, logger: Logger(label: "flint-test"))
        let store = FailingStore(base: base)
        var settings = ServerSettings()
        settings.port = 0
        let server = try await FlintServer(settings: settings, store: store, clock: clock, logger: Logger(label: "flint-test"))
        try await server.application.test(.router) { client in
            #expect(try await client.execute(uri: "/readyz", method: .get).status == .ok)
            store.down.withLock { $0 = true }
            #expect(try await client.execute(uri: "/readyz", method: .get).status == .ok, "the last check stands for its interval")
            clock.advance(by: NodeReadiness.checkInterval)
            let down = try await client.execute(uri: "/readyz", method: .get)
            #expect(down.status == .serviceUnavailable)
            #expect(String(buffer: down.body) == #"{"ready":false,"reason":"database unreachable"}"#, "a fixed reason, never the error's text")
            let live = try await client.execute(uri: "/healthz", method: .get)
            #expect(live.status == .ok, "liveness does not depend on the database")
            store.down.withLock { $0 = false }
            clock.advance(by: NodeReadiness.checkInterval)
            #expect(try await client.execute(uri: "/readyz", method: .get).status == .ok)
        }
        try await base.close()
    }

    @Test func aStartingNodeAnswersOnlyItsProbes() async throws {
        let responder = NodeResponder(readiness: NodeReadiness(clock: ManualClock(Instant(Date()))))
        try await Application(responder: responder).test(.router) { client in
            #expect(try await client.execute(uri: "/healthz", method: .get).status == .ok)
            let ready = try await client.execute(uri: "/readyz", method: .get)
            #expect(ready.status == .serviceUnavailable && String(buffer: ready.body) == #"{"ready":false,"reason":"starting"}"#)
            let api = try await client.execute(uri: API.keyed(Path.lookup), method: .post, body: ByteBuffer(string: "{}"))
            #expect(api.status == .serviceUnavailable && api.headers[.retryAfter] == "1")
            #expect(String(buffer: api.body) == #"{"ready":false,"reason":"starting"}"#)
        }
    }

    @Test func aDrainingNodeIsNotReadyButStillServes() async throws {
        let node = try await TestNode.make()
        try await node.run { api in
            #expect(try await api.call(.get, "/readyz").status == .ok)
            node.server.readiness.drain()
            let ready = try await api.call(.get, "/readyz")
            #expect(ready.status == .serviceUnavailable && ready.text == #"{"ready":false,"reason":"draining"}"#)
            #expect(try await api.call(.get, "/healthz").status == .ok)
            #expect(try await api.call(.get, Path.jwks).status == .ok, "requests still in flight or arriving are served")
        }
    }
}
