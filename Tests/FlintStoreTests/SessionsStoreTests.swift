import FlintCore
import FlintStore
import FlintTesting
import Testing

@Suite("Sessions per device")
struct SessionsStoreTests {
    /// A token hash whose first 16 digits, its session ID, are `id`.
    static func hash(_ id: String) -> String { id + String(repeating: "0", count: 64 - id.count) }

    static func token(_ id: String, of owner: String, at created: Instant) -> RefreshTokenRecord {
        var token = RefreshTokenRecord(
            tokenHash: hash(id), localID: owner, createdAt: created, authTime: Instant(secondsSince1970: 1), signInProvider: "password",
            secondFactor: .totp, secondFactorID: "e1")
        (token.device, token.firstIP, token.lastIP) = ("Safari on iPhone", "203.0.113.1", "203.0.113.1")
        return token
    }

    @Test("a session keeps its device, addresses and last use; listed by account, most recently used first", arguments: Engine.all)
    func stored(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        try await store.write { tx in
            try await tx.insertUser(UserRecord(localID: "u1", createdAt: 1, validSince: Instant(secondsSince1970: 1)))
            try await tx.insertUser(UserRecord(localID: "u2", createdAt: 1, validSince: Instant(secondsSince1970: 1)))
            try await tx.insertRefreshToken(Self.token("aaaaaaaaaaaaaaaa", of: "u1", at: 1_000))
            try await tx.insertRefreshToken(Self.token("bbbbbbbbbbbbbbbb", of: "u1", at: 2_000))
            try await tx.insertRefreshToken(Self.token("cccccccccccccccc", of: "u2", at: 3_000))
        }
        let listed = try await store.read { try await $0.sessions(tenant: .default, localID: "u1") }
        #expect(listed.map(\.sessionID) == ["bbbbbbbbbbbbbbbb", "aaaaaaaaaaaaaaaa"])
        #expect(listed.last == Self.token("aaaaaaaaaaaaaaaa", of: "u1", at: 1_000))
        #expect(listed.last?.lastUsedAt == 1_000, "a new session was last used when it was made")

        try await store.write { try await $0.touchSession(hash: Self.hash("aaaaaaaaaaaaaaaa"), at: 5_000, ip: "198.51.100.2") }
        try await store.write { try await $0.touchSession(hash: Self.hash("bbbbbbbbbbbbbbbb"), at: 4_000, ip: nil) }
        let touched = try await store.read { try await $0.sessions(tenant: .default, localID: "u1") }
        #expect(touched.map(\.sessionID) == ["aaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbb"])
        #expect(touched.first?.lastIP == "198.51.100.2" && touched.first?.firstIP == "203.0.113.1")
        #expect(touched.last?.lastIP == "203.0.113.1", "an unknown address keeps the last one")
        #expect(try await store.read { try await $0.refreshSession(hash: Self.hash("aaaaaaaaaaaaaaaa")) }?.token.lastUsedAt == 5_000)
        try await store.close()
    }

    @Test("ending one session, or all but one, deletes only that account's tokens; an ID token's check reads the session", arguments: Engine.all)
    func ending(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        try await store.write { tx in
            try await tx.insertUser(UserRecord(localID: "u1", createdAt: 1, validSince: Instant(secondsSince1970: 1)))
            try await tx.insertUser(UserRecord(localID: "u2", createdAt: 1, validSince: Instant(secondsSince1970: 1)))
            for id in ["aaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbb", "cccccccccccccccc"] {
                try await tx.insertRefreshToken(Self.token(id, of: "u1", at: 1))
            }
            try await tx.insertRefreshToken(Self.token("dddddddddddddddd", of: "u2", at: 1))
        }
        #expect(
            try await store.read { try await $0.userWithSession(tenant: .default, localID: "u1", sessionID: "aaaaaaaaaaaaaaaa") }?.sessionLive == true
        )
        #expect(
            try await store.write { try await $0.deleteSession(tenant: .default, localID: "u1", sessionID: "dddddddddddddddd") } == false, "not u1's")
        #expect(try await store.write { try await $0.deleteSession(tenant: .default, localID: "u1", sessionID: "aaaaaaaaaaaaaaaa") })
        let after = try await store.read { try await $0.userWithSession(tenant: .default, localID: "u1", sessionID: "aaaaaaaaaaaaaaaa") }
        #expect(after?.user.localID == "u1" && after?.sessionLive == false)
        #expect(try await store.read { try await $0.userWithSession(tenant: .default, localID: "nobody", sessionID: "aaaaaaaaaaaaaaaa") } == nil)
        #expect(try await store.write { try await $0.sessionExists(tenant: .default, localID: "u1", sessionID: "bbbbbbbbbbbbbbbb") })
        // One session read by its ID: only the account's own, and only while it lasts.
        let one = try await store.read { try await $0.session(tenant: .default, localID: "u1", sessionID: "bbbbbbbbbbbbbbbb") }
        #expect(one?.sessionID == "bbbbbbbbbbbbbbbb" && one?.localID == "u1")
        #expect(try await store.read { try await $0.session(tenant: .default, localID: "u1", sessionID: "dddddddddddddddd") } == nil, "u2's")
        #expect(try await store.read { try await $0.session(tenant: .default, localID: "u1", sessionID: "aaaaaaaaaaaaaaaa") } == nil, "ended")
        #expect(try await store.write { try await $0.deleteSessions(tenant: .default, localID: "u1", except: "bbbbbbbbbbbbbbbb") } == 1)
        #expect(try await store.read { try await $0.sessions(tenant: .default, localID: "u1") }.map(\.sessionID) == ["bbbbbbbbbbbbbbbb"])
        #expect(try await store.read { try await $0.sessions(tenant: .default, localID: "u2") }.count == 1)
        try await store.close()
    }
}
