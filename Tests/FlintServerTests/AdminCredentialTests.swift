import FlintCore
import FlintServerTestSupport
import FlintStore
import FlintTesting
import Foundation
import HTTPTypes
import Logging
import Testing

@testable import FlintServer

@Suite("Named admin credentials: Bearer secrets, scopes, revocation, attribution")
struct AdminCredentialTests {
    static let lookup = "\(Path.v1)/projects/\(project)/accounts:lookup"
    static let update = "\(Path.v1)/projects/\(project)/accounts:update"
    static let create = "\(Path.v1)/projects/\(project)/accounts"

    /// A production node (bootstrap credential `boot-secret`) logging into `log`, with credentials `writer` and `reader`.
    func withProduction(
        log: LogLines = LogLines(), _ body: @escaping @Sendable (API, TestNode, _ writer: String, _ reader: String) async throws -> Void
    ) async throws {
        let store = try await SQLiteStore(path: nil, replayingWrites: true, logger: log.logger())
        var settings = ServerSettings()
        (settings.port, settings.devMode, settings.adminToken) = (0, false, "boot-secret")
        settings.passwordHashParameters = PasswordHashParameters(logN: 10)
        let clock = ManualClock(Instant(Date()))
        let node = TestNode(
            server: try await FlintServer(settings: settings, store: store, clock: clock, logger: log.logger()),
            clock: clock,
            store: store)
        let writer = try await node.adminCredential("writer", scope: .write)
        let reader = try await node.adminCredential("reader", scope: .read)
        try await node.run { api in try await body(api, node, writer, reader) }
    }

    @Test("a write credential does what the bootstrap credential does; the bootstrap still works")
    func write() async throws {
        try await withProduction { api, _, writer, _ in
            let created = try await api.bearer(writer, .post, Self.create, body: #"{"localId":"u1","email":"u1@example.com"}"#)
            #expect(created.status == .ok, "\(created.text)")
            #expect(try await api.bearer(writer, .post, Self.lookup, body: #"{"localId":["u1"]}"#).status == .ok)
            #expect(try await api.bearer("boot-secret", .post, Self.update, body: #"{"localId":"u1","displayName":"A"}"#).status == .ok)
        }
    }

    @Test("a read credential reads, and is refused on writes with Firebase's 403")
    func read() async throws {
        try await withProduction { api, _, writer, reader in
            _ = try await api.bearer(writer, .post, Self.create, body: #"{"localId":"u1"}"#)
            #expect(try await api.bearer(reader, .post, Self.lookup, body: #"{"localId":["u1"]}"#).status == .ok)
            let download = try await api.bearer(reader, .post, "\(Path.v3)/downloadAccount", body: #"{"maxResults":10}"#)
            #expect(download.status == .ok, "the v3 listing only reads: \(download.text)")
            #expect(try await api.bearer(reader, .get, Path.config).status == .ok)
            for (method, path, body) in [
                (HTTPRequest.Method.post, Self.update, #"{"localId":"u1","disableUser":true}"#), (.post, Self.create, #"{"localId":"u2"}"#),
                (.patch, Path.config + "?updateMask=signIn.anonymous.enabled", #"{"signIn":{"anonymous":{"enabled":true}}}"#),
                (.post, Path.sessionCookie, #"{"idToken":"x"}"#),
            ] {
                let reply = try await api.bearer(reader, method, path, body: body)
                #expect(reply.status == .forbidden, "\(path): \(reply.text)")
                #expect(reply.errorCode == "INSUFFICIENT_PERMISSION")
                #expect(reply.json["error"]?["status"] == "PERMISSION_DENIED")
            }
        }
    }

    @Test("a revoked or unknown secret is 401, as any bad credential")
    func revoked() async throws {
        try await withProduction { api, node, writer, _ in
            let revoked = try await node.store.write { try await $0.revokeAdminCredential(name: "writer", at: 1) }
            #expect(revoked)
            for secret in [writer, "flint_not-a-secret", "owner"] {
                let reply = try await api.bearer(secret, .post, Self.lookup, body: #"{"localId":["u1"]}"#)
                #expect(reply.status == .unauthorized, "owner is dev mode's only")
            }
        }
    }

    @Test("every admin call is logged with its credential's name, never its secret")
    func attribution() async throws {
        let log = LogLines()
        try await withProduction(log: log) { api, _, writer, reader in
            _ = try await api.bearer(writer, .post, Self.create, body: #"{"localId":"u1"}"#)
            _ = try await api.bearer(reader, .post, Self.update, body: #"{"localId":"u1","disableUser":true}"#)
            _ = try await api.bearer("boot-secret", .get, Path.config)
            let calls = log.all.filter { $0.message == "admin call" }
            #expect(calls.map { $0.metadata["credential"] } == ["writer", "reader", "bootstrap"])
            #expect(calls.map { $0.metadata["status"] } == ["200", "403", "200"])
            #expect(calls.first?.metadata["path"] == Self.create)
            let everything = log.all.map { $0.message + $0.metadata.values.joined() }.joined()
            #expect(!everything.contains(writer) && !everything.contains(reader) && !everything.contains("boot-secret"))
        }
    }

    @Test("in dev mode Bearer owner is the operator, named owner, and named credentials work too")
    func devMode() async throws {
        let node = try await TestNode.make()
        let reader = try await node.adminCredential("reader", scope: .read)
        try await node.run { api in
            let owner = try await api.admin(.get, Path.config)
            let read = try await api.bearer(reader, .get, Path.config)
            let write = try await api.bearer(reader, .post, Self.create, body: "{}")
            #expect(owner.status == .ok && read.status == .ok && write.status == .forbidden)
        }
    }

    @Test("the audit log names the credential an operator used: a named one, the bootstrap")
    func auditActor() async throws {
        try await withProduction { api, _, writer, _ in
            let created = try await api.bearer(writer, .post, Self.create, body: #"{"localId":"u9","email":"u9@example.com"}"#)
            #expect(created.status == .ok, "\(created.text)")
            let deleted = try await api.bearer("boot-secret", .post, "\(Path.v1)/projects/\(project)/accounts:delete", body: #"{"localId":"u9"}"#)
            #expect(deleted.status == .ok, "\(deleted.text)")
            let listed = try await api.bearer("boot-secret", .get, "/flint/v1/projects/\(project)/auditEvents?kind=ADMIN_ACTION")
            let events = try #require(listed.json["auditEvents"]?.arrayValue, "\(listed.text)")
            let actors = events.compactMap { $0["actor"]?.stringValue }
            #expect(actors.contains("writer") && actors.contains("bootstrap"), "\(actors)")
            let gone = try await api.bearer("boot-secret", .get, "/flint/v1/projects/\(project)/auditEvents?kind=ACCOUNT_DELETED")
            #expect(gone.json["auditEvents"]?.arrayValue?.first?["actor"] == "bootstrap", "\(gone.text)")
        }
    }
}
