import FlintCore
import FlintServerTestSupport
import FlintStore
import FlintTesting
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import FlintServer

@Suite("Key rotation through the admin API")
struct KeyRotationTests {
    /// How long a scheduled key is published before it signs, with the default one-hour max-age of the key endpoints
    /// and the default 30-second reload interval.
    static let lead: Duration = .seconds(3600 + 30 + 300)

    /// The kids an answer of the JWKS endpoint lists.
    static func publishedKIDs(_ api: API) async throws -> Set<String> {
        let jwks = try await api.call(.get, "/.well-known/jwks.json")
        return Set(jwks["keys"]?.arrayValue?.compactMap { $0["kid"]?.stringValue } ?? [])
    }

    @Test(
        "only the operator rotates; the new key is published at once but signs only from its activation, and the old one stays published while its tokens live"
    )
    func rotate() async throws {
        try await withFlint { api in
            let start = api.clock.now()
            let before = try await api.signIn("+16505553434")
            let oldKid = try #require(try JWT.header(before.idToken)["kid"]?.stringValue)
            #expect(try await api.call(.post, "/flint/v1/projects/demo-flint/keys:rotate").status == .unauthorized)
            #expect(try await api.call(.post, API.keyed("/flint/v1/projects/demo-flint/keys:rotate")).status == .forbidden)
            #expect(try await api.admin(.post, "/flint/v1/projects/other/keys:rotate").status == .notFound)
            let rotated = try await api.admin(.post, "/flint/v1/projects/demo-flint/keys:rotate")
            #expect(rotated.status == .ok)
            let newKid = try #require(rotated.string("kid"))
            #expect(newKid != oldKid)
            #expect(rotated.string("activateTime") == RFC3339.format(start + Self.lead))
            #expect(try await Self.publishedKIDs(api) == [oldKid, newKid], "published before it signs")
            #expect(try await api.call(.get, Path.x509).json.objectValue?.count == 2)
            let stillOld = try await api.signIn("+16505553435")
            #expect(try JWT.header(stillOld.idToken)["kid"]?.stringValue == oldKid, "tokens are still signed by the old key")
            let again = try await api.admin(.post, "/flint/v1/projects/demo-flint/keys:rotate")
            #expect(again.string("kid") == newKid, "rotating again answers the key not started yet")

            api.clock.advance(by: Self.lead - .seconds(1))
            let lastOld = try await api.signIn("+16505553436")
            #expect(try JWT.header(lastOld.idToken)["kid"]?.stringValue == oldKid)
            api.clock.advance(by: .seconds(1))
            let after = try await api.signIn("+16505553437")
            #expect(try JWT.header(after.idToken)["kid"]?.stringValue == newKid, "from its activation the new key signs")
            #expect(try await api.lookup(lastOld.idToken).status == .ok, "tokens of the retired key still verify")
            #expect(try await Self.publishedKIDs(api) == [oldKid, newKid])

            api.clock.advance(by: KeyRing.retiredKeyGrace - .seconds(1))
            #expect(try await Self.publishedKIDs(api) == [oldKid, newKid], "published until a 14-day session cookie it signed expires")
            api.clock.advance(by: .seconds(1))
            #expect(try await Self.publishedKIDs(api) == [newKid], "then gone")
        }
    }

    @Test("a scheduled key is kept across a restart: a node started later signs with it from the same instant")
    func scheduleSurvivesRestart() async throws {
        let path = temporaryDatabasePath()
        let clock = ManualClock(Instant(Date()))
        let first = try await TestNode.make(path: path, clock: clock)
        let scheduled = try await first.run { api in
            try #require(try await api.admin(.post, "/flint/v1/projects/demo-flint/keys:rotate").string("kid"))
        }
        let second = try await TestNode.make(path: path, clock: clock)
        try await second.run { api in
            #expect(try await Self.publishedKIDs(api).contains(scheduled))
            let early = try await api.signIn("+16505553438")
            #expect(try JWT.header(early.idToken)["kid"]?.stringValue != scheduled)
            api.clock.advance(by: Self.lead)
            let late = try await api.signIn("+16505553439")
            #expect(try JWT.header(late.idToken)["kid"]?.stringValue == scheduled)
        }
    }

    @Test("emergency revocation unpublishes the leaked key at once, its tokens stop verifying, new tokens use a new key; audited")
    func emergencyRevocation() async throws {
        let node = try await TestNode.make()
        try await node.run { api in
            let before = try await api.signIn("+16505553440")
            let leaked = try #require(try JWT.header(before.idToken)["kid"]?.stringValue)
            let scheduled = try #require(try await api.admin(.post, "/flint/v1/projects/demo-flint/keys:rotate").string("kid"))
            let revocation = try await AuditOrigin.$current.withValue(AuditOrigin(actor: "cli")) {
                try #require(try await FlintServer.revokeKey(leaked, store: node.store, clock: node.clock))
            }
            guard case .replaced(let newKid) = revocation else {
                Issue.record("the signing key's revocation adds a key: \(revocation)")
                return
            }
            try await node.server.flows.keys.reload()
            let published = try await Self.publishedKIDs(api)
            #expect(!published.contains(leaked) && published.contains(newKid))
            #expect(published.contains(scheduled), "the scheduled key stays published, retired before it signed")
            #expect(try await api.call(.get, Path.x509).json.objectValue?[leaked] == nil)
            #expect(try await api.lookup(before.idToken).errorCode == "INVALID_ID_TOKEN", "tokens of a revoked key stop verifying")
            let after = try await api.signIn("+16505553441")
            #expect(try JWT.header(after.idToken)["kid"]?.stringValue == newKid, "the new key signs at once")
            api.clock.advance(by: Self.lead)
            let later = try await api.signIn("+16505553442")
            #expect(try JWT.header(later.idToken)["kid"]?.stringValue == newKid, "the earlier scheduled key never signs")
            #expect(try await FlintServer.revokeKey(leaked, store: node.store, clock: node.clock) == nil, "a key is revoked once")
            #expect(try await FlintServer.revokeKey("unknown", store: node.store, clock: node.clock) == nil)
            let event = try #require(try await api.auditEvents("kind=ADMIN_ACTION").first)
            #expect(event["actor"]?.stringValue == "cli")
            #expect(event["detail"]?["action"]?.stringValue == "revokeSigningKey")
            #expect(event["detail"]?["kid"]?.stringValue == leaked && event["detail"]?["newKid"]?.stringValue == newKid)
        }
    }

    @Test("keys:revoke is the operator's emergency rotation: the leaked key is unpublished at once and a new key signs at once")
    func revokeRoute() async throws {
        try await withFlint { api in
            let before = try await api.signIn("+16505553443")
            let leaked = try #require(try JWT.header(before.idToken)["kid"]?.stringValue)
            let path = "/flint/v1/projects/demo-flint/keys:revoke"
            let body = #"{"kid":"\#(leaked)"}"#
            #expect(try await api.call(.post, path, body: body).status == .unauthorized)
            #expect(try await api.call(.post, API.keyed(path), body: body).status == .forbidden)
            #expect(try await api.admin(.post, "/flint/v1/projects/other/keys:revoke", body: body).status == .notFound)
            #expect(try await api.admin(.post, path, body: "{}").status == .badRequest)
            #expect(try await api.admin(.post, path, body: #"{"kid":"unknown"}"#).status == .notFound)
            let revoked = try await api.admin(.post, path, body: body)
            #expect(revoked.status == .ok)
            let newKid = try #require(revoked.string("kid"))
            #expect(revoked.json["newKey"]?.boolValue == true)
            #expect(try await Self.publishedKIDs(api) == [newKid])
            #expect(try await api.lookup(before.idToken).errorCode == "INVALID_ID_TOKEN")
            let after = try await api.signIn("+16505553444")
            #expect(try JWT.header(after.idToken)["kid"]?.stringValue == newKid)
            #expect(try await api.admin(.post, path, body: body).status == .notFound, "a key is revoked once")
            let actions = try await api.auditEvents("kind=ADMIN_ACTION").compactMap { $0["detail"]?["action"]?.stringValue }
            #expect(actions.filter { $0 == "revokeSigningKey" }.count == 1)
        }
    }

    @Test("revoking a retired key only unpublishes it: no new key, the signing key goes on signing")
    func revokeRetiredKey() async throws {
        try await withFlint { api in
            let old = try await api.signIn("+16505553445")
            let oldKid = try #require(try JWT.header(old.idToken)["kid"]?.stringValue)
            let newKid = try #require(try await api.admin(.post, "/flint/v1/projects/demo-flint/keys:rotate").string("kid"))
            api.clock.advance(by: Self.lead)
            let revoked = try await api.admin(.post, "/flint/v1/projects/demo-flint/keys:revoke", body: #"{"kid":"\#(oldKid)"}"#)
            #expect(revoked.status == .ok)
            #expect(revoked.string("kid") == newKid && revoked.json["newKey"]?.boolValue == false)
            #expect(try await Self.publishedKIDs(api) == [newKid], "no key verifiers have not fetched")
            #expect(try await api.lookup(old.idToken).errorCode == "INVALID_ID_TOKEN")
            let after = try await api.signIn("+16505553446")
            #expect(try JWT.header(after.idToken)["kid"]?.stringValue == newKid)
            let events = try await api.auditEvents("kind=ADMIN_ACTION").filter { $0["detail"]?["action"]?.stringValue == "revokeSigningKey" }
            #expect(events.count == 1)
            #expect(events.first?["detail"]?["kid"]?.stringValue == oldKid && events.first?["detail"]?["newKid"] == nil)
        }
    }

    @Test("revoking a scheduled key unpublishes it and cancels its start: the signing key goes on signing past its activation")
    func revokeScheduledKey() async throws {
        try await withFlint { api in
            let before = try await api.signIn("+16505553447")
            let signing = try #require(try JWT.header(before.idToken)["kid"]?.stringValue)
            let scheduled = try #require(try await api.admin(.post, "/flint/v1/projects/demo-flint/keys:rotate").string("kid"))
            let revoked = try await api.admin(.post, "/flint/v1/projects/demo-flint/keys:revoke", body: #"{"kid":"\#(scheduled)"}"#)
            #expect(revoked.string("kid") == signing && revoked.json["newKey"]?.boolValue == false)
            #expect(try await Self.publishedKIDs(api) == [signing])
            api.clock.advance(by: Self.lead + .seconds(1))
            let later = try await api.signIn("+16505553448")
            #expect(try JWT.header(later.idToken)["kid"]?.stringValue == signing, "the signing key no longer retires at the revoked key's start")
            let next = try await api.admin(.post, "/flint/v1/projects/demo-flint/keys:rotate")
            #expect(next.string("kid") != scheduled && next.string("kid") != signing, "a new rotation schedules a new key")
        }
    }

    @Test("rotating while a key is scheduled generates no key")
    func rotateAgainGeneratesNothing() async throws {
        let node = try await TestNode.make()
        try await node.run { _ in
            let first = try await FlintServer.rotateKeys(store: node.store, clock: node.clock)
            let random = CountingRandom()
            let again = try await KeyCache.rotate(
                store: node.store, secrets: SecretsAtRest(masterKey: nil), lead: Self.lead, clock: node.clock, random: random)
            #expect(again == ScheduledKey(kid: first.kid, activatesAt: first.activatesAt, isNew: false))
            #expect(random.calls == 0, "no RSA key made for nothing")
        }
    }

    @Test("the rotation's lead covers the nodes' reload interval")
    func leadCoversReloadInterval() async throws {
        let node = try await TestNode.make()
        try await node.run { _ in
            let scheduled = try await FlintServer.rotateKeys(store: node.store, reloadInterval: .seconds(600), clock: node.clock)
            #expect(scheduled.activatesAt == node.clock.now() + .seconds(3600 + 600 + 300))
        }
    }
}

/// A random source that counts its calls (a key generated draws from it).
private final class CountingRandom: RandomSource, @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var calls: Int { lock.withLock { count } }
    func bytes(_ n: Int) -> [UInt8] {
        lock.withLock { count += 1 }
        return SystemRandom().bytes(n)
    }
}
