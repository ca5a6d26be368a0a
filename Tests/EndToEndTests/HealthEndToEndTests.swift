import FlintStore
import FlintTesting
import Foundation
import Testing

/// `flint serve`'s probes for load balancers, from start to stop: `/healthz` answers as soon as the process listens,
/// `/readyz` only once the node serves, and not any more once it drains at SIGTERM.
@Suite("flint serve: liveness and readiness, end to end")
struct HealthEndToEndTests {
    static let starting = #"{"ready":false,"reason":"starting"}"#

    /// Polls another process's state every 50 ms until `check` holds or `limit` passes.
    func eventually(within limit: Duration = .seconds(20), _ check: () async -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if await check() { return true }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return false
    }

    @Test("a node drains at SIGTERM: not ready while it still serves for --drain-time, then it exits")
    func drainsAtSIGTERM() async throws {
        let data = temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let node = try await FlintProcess(dataDirectory: data, extraArguments: ["--drain-time", "20"])
        let live = try await node.get("/healthz")
        #expect(live.0 == 200 && String(decoding: live.1, as: UTF8.self) == #"{"status":"ok"}"#)
        let ready = try await node.get("/readyz")
        #expect(ready.0 == 200 && String(decoding: ready.1, as: UTF8.self) == #"{"ready":true}"#)

        // From SIGTERM on the drain window runs out, so the signal, the probes and the request the node still serves
        // go one after the other on a thread of their own: on the whole suite's busy pool each await could wait longer
        // than the window for its task's turn, and the test would find the listener closed.
        let (pid, port) = (node.pid, node.port)
        let seen = try await RawSocket.conversation {
            kill(pid, SIGTERM)
            var readiness = try RawSocket.get(port: port, "/readyz")
            let deadline = Date().addingTimeInterval(10)
            while readiness.status == 200 && Date() < deadline { readiness = try RawSocket.get(port: port, "/readyz") }
            return (readiness: readiness, served: try RawSocket.get(port: port, "/.well-known/jwks.json").status)
        }
        #expect(
            seen.readiness.status == 503 && seen.readiness.body == #"{"ready":false,"reason":"draining"}"#,
            "readiness turns 503 at SIGTERM: \(seen.readiness) \(node.log)")
        #expect(seen.served == 200, "the draining node still serves")
        #expect(await node.stop() == 0)
        #expect(node.log.contains("draining"))
    }

    @Test(
        "a node waiting at its migrations (another node holds their lock) is alive but not ready, and serves nothing else",
        .enabled(if: postgresURL != nil))
    func notReadyWhileMigrating() async throws {
        let url = try await TwoNodeTests().freshDatabase(on: try #require(postgresURL))
        let data = temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let node = try await withPostgresAdvisoryLock(PostgresStore.migrationLock, on: url) {
            let node = try await FlintProcess(dataDirectory: data, extraArguments: ["--database", url, "--dev"], untilReady: false)
            #expect(try await node.get("/healthz").0 == 200)
            let ready = try await node.get("/readyz")
            #expect(ready.0 == 503 && String(decoding: ready.1, as: UTF8.self) == Self.starting)
            let api = try await node.send("POST", "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=e2e", body: Data("{}".utf8))
            #expect(api.0 == 503 && String(decoding: api.1, as: UTF8.self) == Self.starting)
            return node
        }
        // The lock released, the node migrates (nothing is left to apply) and serves; a loaded machine makes it slower.
        #expect(await eventually(within: postgresTestStartLimit) { await FlintProcess.status(of: node.base + "/readyz") == 200 }, "\(node.log)")
        let signUp = try await node.send("POST", "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=e2e", body: Data("{}".utf8))
        #expect(signUp.0 != 503)
        #expect(await node.stop() == 0)
    }
}
