import FlintCore
import FlintStore
import FlintTesting
import Foundation
import Testing

@Suite("Federated identity storage")
struct FederatedIdentityStoreTests {
    static func user(_ id: String) -> UserRecord {
        UserRecord(localID: id, createdAt: 1000, validSince: Instant(secondsSince1970: 1))
    }

    static func google(_ localID: String, _ rawID: String, email: String? = nil) -> FederatedIdentityRecord {
        FederatedIdentityRecord(
            localID: localID, providerID: "google.com", rawID: rawID, email: email, displayName: "G \(rawID)", photoURL: "https://g/\(rawID)",
            phoneNumber: "+16505550100", screenName: "g\(rawID)")
    }

    @Test("imported identities are stored with every field, found by provider and raw ID, listed by account and exported", arguments: Engine.all)
    func importAndRead(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        let apple = FederatedIdentityRecord(localID: "a", providerID: "apple.com", rawID: "001.apple")
        let accounts = [
            UserAndFactors(user: Self.user("a"), identities: [apple, Self.google("a", "g-1", email: "a@gmail.com")]),
            UserAndFactors(user: Self.user("b"), identities: [Self.google("b", "g-2")]),
            UserAndFactors(user: Self.user("c")),
        ]
        try await store.write { try await $0.insertImportedUsers(accounts) }
        #expect(try await store.read { try await $0.federatedIdentities(tenant: .default, localID: "a") } == accounts[0].identities)
        let found = try await store.read {
            try await $0.user(tenant: .default, federatedID: FederatedIdentityKey(providerID: "google.com", rawID: "g-2"))
        }
        #expect(found?.localID == "b")
        #expect(
            try await store.read { try await $0.user(tenant: .default, federatedID: FederatedIdentityKey(providerID: "apple.com", rawID: "g-2")) }
                == nil)
        let byAccount = try await store.read { try await $0.federatedIdentities(tenant: .default, localIDs: ["a", "b", "c", "absent"]) }
        #expect(byAccount["a"]?.count == 2)
        #expect(byAccount["b"] == [Self.google("b", "g-2")])
        #expect(byAccount["c"] == nil)
        #expect(try await store.read { try await $0.exportPage(tenant: .default, after: nil, limit: 10) } == accounts)
        let clashes = try await store.read {
            try await $0.importClashes(
                tenant: .default,
                localIDs: [], emails: [], phoneNumbers: [], enrollmentIDs: [],
                identities: [
                    FederatedIdentityKey(providerID: "google.com", rawID: "g-1"), FederatedIdentityKey(providerID: "google.com", rawID: "g-9"),
                    FederatedIdentityKey(providerID: "apple.com", rawID: "001.apple"),
                ])
        }
        #expect(
            clashes.identityOwners == [
                FederatedIdentityKey(providerID: "google.com", rawID: "g-1"): "a",
                FederatedIdentityKey(providerID: "apple.com", rawID: "001.apple"): "a",
            ])
        try await store.close()
    }

    @Test("an account found by its number comes with its identities in one read; without any, with none", arguments: Engine.all)
    func userWithIdentitiesByPhone(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        var withTwo = Self.user("a")
        withTwo.phoneNumber = "+16505550101"
        withTwo.email = "a@example.com"
        var withNone = Self.user("b")
        withNone.phoneNumber = "+16505550102"
        let apple = FederatedIdentityRecord(localID: "a", providerID: "apple.com", rawID: "001.apple", email: "relay@privaterelay.appleid.com")
        let accounts = [
            UserAndFactors(user: withTwo, identities: [Self.google("a", "g-1", email: "a@gmail.com"), apple]), UserAndFactors(user: withNone),
        ]
        try await store.write { try await $0.insertImportedUsers(accounts) }
        let two = try #require(try await store.read { try await $0.userWithIdentities(tenant: .default, phoneNumber: "+16505550101") })
        #expect(two.user == withTwo)
        #expect(two.identities == [apple, Self.google("a", "g-1", email: "a@gmail.com")])
        #expect(two.identities == (try await store.read { try await $0.federatedIdentities(tenant: .default, localID: "a") }))
        let none = try #require(try await store.read { try await $0.userWithIdentities(tenant: .default, phoneNumber: "+16505550102") })
        #expect(none.user == withNone && none.identities.isEmpty)
        #expect(try await store.read { try await $0.userWithIdentities(tenant: .default, phoneNumber: "+16505550199") } == nil)

        // With counters: their hits beside the account (0 for a window without a row), with or without an account.
        for _ in 0..<2 { _ = try await store.write { try await $0.incrementCounter(key: "w:a", windowStart: 60, expiresAt: 120) } }
        let counters: [(key: CounterKey, windowStart: Instant)] = [("w:a", 60), ("w:a", 0), ("w:b", 60)]
        let read = try await store.read { try await $0.userWithIdentities(tenant: .default, phoneNumber: "+16505550101", counters: counters) }
        #expect(read.found?.user == withTwo && read.found?.identities.count == 2)
        #expect(read.hits == [2, 0, 0])
        let nobody = try await store.read { try await $0.userWithIdentities(tenant: .default, phoneNumber: "+16505550199", counters: counters) }
        #expect(nobody.found == nil && nobody.hits == [2, 0, 0])
        try await store.close()
    }

    @Test("a fresh account inserted without reading back is there at the commit; a taken number fails the transaction", arguments: Engine.all)
    func freshUser(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        var fresh = Self.user("fresh")
        fresh.phoneNumber = "+16505550103"
        try await store.write { [fresh] tx in
            try await tx.insertFreshUser(fresh)
            try await tx.recordSignIn(tenant: .default, localID: "fresh", at: 99)
        }
        #expect(try await store.read { try await $0.user(tenant: .default, localID: "fresh") }?.phoneNumber == "+16505550103")
        var twin = Self.user("twin")
        twin.phoneNumber = "+16505550103"
        await #expect(throws: (any Error).self) { try await store.write { [twin] tx in try await tx.insertFreshUser(twin) } }
        #expect(try await store.read { try await $0.user(tenant: .default, localID: "twin") } == nil)
        try await store.close()
    }

    @Test("identities are found by the email their provider gave, across accounts", arguments: Engine.all)
    func byProviderEmail(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        try await store.write { tx in
            try await tx.insertUser(Self.user("a"))
            try await tx.insertUser(Self.user("b"))
            try await tx.linkFederatedIdentity(Self.google("a", "g-1", email: "ada@gmail.com"))
            try await tx.linkFederatedIdentity(FederatedIdentityRecord(localID: "b", providerID: "apple.com", rawID: "001", email: "ada@gmail.com"))
            try await tx.linkFederatedIdentity(FederatedIdentityRecord(localID: "b", providerID: "oidc.corp", rawID: "e1", email: "other@corp"))
        }
        let found = try await store.read { try await $0.federatedIdentities(tenant: .default, email: "ada@gmail.com") }
        #expect(found.map(\.providerID) == ["apple.com", "google.com"])
        #expect(found.map(\.localID) == ["b", "a"])
        #expect(try await store.read { try await $0.federatedIdentities(tenant: .default, email: "nobody@gmail.com") }.isEmpty)
        try await store.close()
    }

    @Test("an identity another account holds is a conflict, at import and at link, and nothing of it is written", arguments: Engine.all)
    func conflicts(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        try await store.write { try await $0.insertImportedUsers([UserAndFactors(user: Self.user("a"), identities: [Self.google("a", "g-1")])]) }
        await #expect(throws: StoreError.conflict(.federatedIdentity)) {
            try await store.write { try await $0.insertImportedUsers([UserAndFactors(user: Self.user("b"), identities: [Self.google("b", "g-1")])]) }
        }
        #expect(try await store.read { try await $0.user(tenant: .default, localID: "b") } == nil)
        try await store.write { try await $0.insertUser(Self.user("b")) }
        await #expect(throws: StoreError.conflict(.federatedIdentity)) {
            try await store.write { try await $0.linkFederatedIdentity(Self.google("b", "g-1")) }
        }
        #expect(try await store.read { try await $0.federatedIdentities(tenant: .default, localID: "b") }.isEmpty)
        try await store.close()
    }

    @Test("linking replaces the account's identity at the same provider; unlinking removes a provider's", arguments: Engine.all)
    func linkAndUnlink(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        try await store.write { try await $0.insertUser(Self.user("a")) }
        try await store.write { tx in
            try await tx.linkFederatedIdentity(Self.google("a", "g-1"))
            try await tx.linkFederatedIdentity(FederatedIdentityRecord(localID: "a", providerID: "github.com", rawID: "42"))
        }
        // Linking the same identity again updates what the provider gave.
        try await store.write { try await $0.linkFederatedIdentity(Self.google("a", "g-1", email: "new@gmail.com")) }
        #expect(
            try await store.read { try await $0.federatedIdentities(tenant: .default, localID: "a") }.first { $0.providerID == "google.com" }?.email
                == "new@gmail.com")
        try await store.write { try await $0.linkFederatedIdentity(Self.google("a", "g-2")) }
        #expect(try await store.read { try await $0.federatedIdentities(tenant: .default, localID: "a") }.map(\.rawID) == ["42", "g-2"])
        #expect(
            try await store.read { try await $0.user(tenant: .default, federatedID: FederatedIdentityKey(providerID: "google.com", rawID: "g-1")) }
                == nil)
        let removed = try await store.write {
            try await $0.unlinkFederatedIdentities(tenant: .default, localID: "a", providerIDs: ["google.com", "facebook.com"])
        }
        #expect(removed == 1)
        #expect(try await store.read { try await $0.federatedIdentities(tenant: .default, localID: "a") }.map(\.providerID) == ["github.com"])
        try await store.close()
    }

    @Test("deleting an account, a batch of accounts, or every account deletes their identities", arguments: Engine.all)
    func deletion(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        let accounts = ["a", "b", "c", "d"].map { UserAndFactors(user: Self.user($0), identities: [Self.google($0, "g-\($0)")]) }
        try await store.write { try await $0.insertImportedUsers(accounts) }
        #expect(try await store.write { try await $0.deleteUser(tenant: .default, localID: "a") })
        _ = try await store.write { try await $0.deleteUsers(tenant: .default, localIDs: ["b", "c"]) }
        for id in ["a", "b", "c"] {
            #expect(try await store.read { try await $0.federatedIdentities(tenant: .default, localID: id) }.isEmpty)
        }
        // The raw IDs are free again.
        try await store.write { try await $0.insertUser(Self.user("e")) }
        try await store.write { try await $0.linkFederatedIdentity(Self.google("e", "g-a")) }
        try await store.write { try await $0.deleteAllUsers(tenant: .default) }
        #expect(try await store.read { try await $0.federatedIdentities(tenant: .default, localIDs: ["d", "e"]) }.isEmpty)
        try await store.close()
    }
}
