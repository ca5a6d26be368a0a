import FlintCore
import FlintStore
import FlintTesting
import Testing

@Suite("Passkey storage")
struct PasskeyStoreTests {
    static func user(_ id: String) -> UserRecord {
        UserRecord(localID: id, createdAt: 1000, validSince: Instant(secondsSince1970: 1))
    }

    static func passkey(_ id: String, of localID: String, at created: Instant = 2000, count: Int64 = 0) -> PasskeyRecord {
        PasskeyRecord(
            credentialID: id, localID: localID, publicKey: "pQECAyYgASFYIA", rpID: "example.com", signCount: count, name: "Key \(id)",
            transports: ["internal", "hybrid"], createdAt: created)
    }

    @Test("a passkey is stored with every field, found by credential ID and listed by account, oldest first", arguments: Engine.all)
    func insertAndRead(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        try await store.write { tx in
            try await tx.insertUser(Self.user("a"))
            try await tx.insertPasskey(Self.passkey("k2", of: "a", at: 3000))
            try await tx.insertPasskey(Self.passkey("k1", of: "a", at: 2000))
            try await tx.insertPasskey(
                PasskeyRecord(
                    credentialID: "k3", localID: "a", publicKey: "x", rpID: "example.com", signCount: 5, name: nil, transports: [], createdAt: 4000))
        }
        #expect(try await store.read { try await $0.passkey(tenant: .default, credentialID: "k1") } == Self.passkey("k1", of: "a", at: 2000))
        #expect(try await store.read { try await $0.passkeys(tenant: .default, localID: "a") }.map(\.credentialID) == ["k1", "k2", "k3"])
        let k3 = try await store.read { try await $0.passkey(tenant: .default, credentialID: "k3") }
        #expect(k3?.name == nil && k3?.transports == [] && k3?.signCount == 5)
        #expect(try await store.read { try await $0.passkey(tenant: .default, credentialID: "absent") } == nil)
        try await store.close()
    }

    @Test("several accounts' passkeys are listed at once, each account's oldest first", arguments: Engine.all)
    func listedForAccounts(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        try await store.write { tx in
            for id in ["a", "b", "c"] { try await tx.insertUser(Self.user(id)) }
            try await tx.insertPasskey(Self.passkey("k2", of: "a", at: 3000))
            try await tx.insertPasskey(Self.passkey("k1", of: "a", at: 2000))
            try await tx.insertPasskey(Self.passkey("k3", of: "b"))
        }
        let listed = try await store.read { try await $0.passkeys(tenant: .default, localIDs: ["a", "b", "c", "a"]) }
        #expect(listed.mapValues { $0.map(\.credentialID) } == ["a": ["k1", "k2"], "b": ["k3"]])
        try await store.close()
    }

    @Test("bulk import writes an account's passkeys and the export page reads them back", arguments: Engine.all)
    func importAndExport(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        let passkeys = [Self.passkey("k1", of: "a", at: 2000, count: 7), Self.passkey("k2", of: "a", at: 3000)]
        try await store.write { tx in
            try await tx.insertImportedUsers([UserAndFactors(user: Self.user("a"), passkeys: passkeys), UserAndFactors(user: Self.user("b"))])
        }
        let page = try await store.read { try await $0.exportPage(tenant: .default, after: nil, limit: 10) }
        #expect(page.map(\.passkeys) == [passkeys, []])
        #expect(try await store.read { try await $0.passkey(tenant: .default, credentialID: "k1") }?.signCount == 7)
        try await store.close()
    }

    @Test("a credential ID is unique across accounts", arguments: Engine.all)
    func uniqueAcrossAccounts(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        try await store.write { tx in
            try await tx.insertUser(Self.user("a"))
            try await tx.insertUser(Self.user("b"))
            try await tx.insertPasskey(Self.passkey("k1", of: "a"))
        }
        await #expect(throws: StoreError.conflict(.passkey)) { try await store.write { try await $0.insertPasskey(Self.passkey("k1", of: "b")) } }
        #expect(try await store.read { try await $0.passkeys(tenant: .default, localID: "b") }.isEmpty)
        try await store.close()
    }

    @Test("the counter moves only from the value read: a second sign-in with the same counter loses", arguments: Engine.all)
    func counterIsConditional(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        try await store.write { tx in
            try await tx.insertUser(Self.user("a"))
            try await tx.insertPasskey(Self.passkey("k1", of: "a", count: 3))
        }
        #expect(try await store.write { try await $0.advancePasskeyCounter(tenant: .default, credentialID: "k1", from: 3, to: 4) })
        #expect(!(try await store.write { try await $0.advancePasskeyCounter(tenant: .default, credentialID: "k1", from: 3, to: 4) }))
        #expect(!(try await store.write { try await $0.advancePasskeyCounter(tenant: .default, credentialID: "absent", from: 0, to: 1) }))
        #expect(try await store.read { try await $0.passkey(tenant: .default, credentialID: "k1") }?.signCount == 4)
        try await store.close()
    }

    @Test("withdrawing removes only the account's own passkeys", arguments: Engine.all)
    func withdraw(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        try await store.write { tx in
            try await tx.insertUser(Self.user("a"))
            try await tx.insertUser(Self.user("b"))
            try await tx.insertPasskey(Self.passkey("k1", of: "a"))
            try await tx.insertPasskey(Self.passkey("k2", of: "a"))
            try await tx.insertPasskey(Self.passkey("k3", of: "b"))
        }
        let removed = try await store.write {
            try await $0.deletePasskeys(tenant: .default, localID: "a", credentialIDs: ["k1", "k3", "absent", "k1"])
        }
        #expect(removed == ["k1"])
        #expect(try await store.read { try await $0.passkeys(tenant: .default, localID: "a") }.map(\.credentialID) == ["k2"])
        #expect(try await store.read { try await $0.passkey(tenant: .default, credentialID: "k3") } != nil)
        try await store.close()
    }

    @Test("passkeys go with their account: one deletion, a batch deletion, and deleting every account", arguments: Engine.all)
    func deletedWithAccount(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        try await store.write { tx in
            for id in ["a", "b", "c", "d"] {
                try await tx.insertUser(Self.user(id))
                try await tx.insertPasskey(Self.passkey("k-\(id)", of: id))
            }
        }
        #expect(try await store.write { try await $0.deleteUser(tenant: .default, localID: "a") })
        #expect(try await store.read { try await $0.passkey(tenant: .default, credentialID: "k-a") } == nil)
        _ = try await store.write { try await $0.deleteUsers(tenant: .default, localIDs: ["b"]) }
        #expect(try await store.read { try await $0.passkey(tenant: .default, credentialID: "k-b") } == nil)
        #expect(try await store.read { try await $0.passkey(tenant: .default, credentialID: "k-c") } != nil)
        try await store.write { try await $0.deleteAllUsers(tenant: .default) }
        #expect(try await store.read { try await $0.passkeys(tenant: .default, localID: "c") }.isEmpty)
        #expect(try await store.read { try await $0.passkeys(tenant: .default, localID: "d") }.isEmpty)
        try await store.close()
    }
}
