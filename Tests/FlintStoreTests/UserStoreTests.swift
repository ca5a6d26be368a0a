import FlintCore
import FlintStore
import FlintTesting
import Testing

@Suite("Users, tokens, keys and durability")
struct UserStoreTests {
    @Test("one account per phone number", arguments: Engine.all)
    func uniquePhone(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        try await store.write {
            try await $0.insertUser(UserRecord(localID: "u1", phoneNumber: "+16505553434", createdAt: 1, validSince: Instant(secondsSince1970: 1)))
        }
        await #expect(throws: StoreError.conflict(.phoneNumber)) {
            try await store.write {
                try await $0.insertUser(
                    UserRecord(localID: "u2", phoneNumber: "+16505553434", createdAt: 1, validSince: Instant(secondsSince1970: 1)))
            }
        }
        #expect(try await store.read { try await $0.userCount(tenant: .default) } == 1)
        try await store.close()
    }

    @Test("every field of a user is saved and read back, by each lookup, after insert and after update", arguments: Engine.all)
    func roundTrip(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        var user = UserRecord(localID: "u1", phoneNumber: "+16505553434", createdAt: 11, validSince: Instant(secondsSince1970: 12))
        user.email = "a@example.com"
        user.emailVerified = true
        user.displayName = "Ann"
        user.photoURL = "https://example.com/a.png"
        user.lastLoginAt = 13
        user.lastRefreshAt = 14
        user.customAttributes = #"{"admin":true}"#
        user.passwordHash = "$scrypt$hash"
        user.passwordUpdatedAt = 15
        user.emailLinkSignIn = true
        user.revocationGeneration = 3
        try await store.write { [user] in try await $0.insertUser(user) }
        /// The user, as each of the six lookups finds it.
        func lookups(_ user: UserRecord) async throws -> [UserRecord?] {
            var found = try await store.read { tx in
                [
                    try await tx.user(tenant: .default, localID: "u1"), try await tx.user(tenant: .default, email: user.email ?? ""),
                    try await tx.user(tenant: .default, phoneNumber: user.phoneNumber ?? ""),
                ]
            }
            found += try await store.write { tx in
                [
                    try await tx.lockedUser(tenant: .default, localID: "u1"), try await tx.lockedUser(tenant: .default, email: user.email ?? ""),
                    try await tx.lockedUser(tenant: .default, phoneNumber: user.phoneNumber ?? ""),
                ]
            }
            return found
        }
        #expect(try await lookups(user) == Array(repeating: user, count: 6))

        user.phoneNumber = nil
        user.email = "b@example.com"
        user.emailVerified = false
        user.displayName = nil
        user.photoURL = nil
        user.disabled = true
        user.lastLoginAt = nil
        user.lastRefreshAt = 24
        user.validSince = Instant(secondsSince1970: 22)
        user.customAttributes = nil
        user.passwordHash = nil
        user.passwordUpdatedAt = nil
        user.emailLinkSignIn = false
        user.revocationGeneration = 5
        try await store.write { [user] in try await $0.updateUser(user) }
        #expect(try await store.read { try await $0.user(tenant: .default, localID: "u1") } == user)
        #expect(try await store.write { try await $0.lockedUser(tenant: .default, email: "b@example.com") } == user)
        #expect(try await store.read { try await $0.user(tenant: .default, email: "a@example.com") } == nil)
        #expect(try await store.read { try await $0.user(tenant: .default, phoneNumber: "+16505553434") } == nil)
        try await store.close()
    }

    @Test("a failing transaction leaves no trace, and the others in its batch commit", arguments: Engine.all)
    func isolation(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0..<20 {
                group.addTask {
                    do {
                        try await store.write { tx in
                            try await tx.insertUser(
                                UserRecord(
                                    localID: "u\(i)", phoneNumber: "+1650555\(1000 + i)", createdAt: 1, validSince: Instant(secondsSince1970: 1)))
                            if i % 2 == 0 { throw Boom() }
                        }
                    } catch is Boom {}
                }
            }
            try await group.waitForAll()
        }
        #expect(try await store.read { try await $0.userCount(tenant: .default) } == 10)
        #expect(try await store.read { try await $0.user(tenant: .default, localID: "u1") } != nil)
        #expect(try await store.read { try await $0.user(tenant: .default, localID: "u2") } == nil)
        try await store.close()
    }

    @Test("deleting a user deletes its refresh tokens", arguments: Engine.all)
    func deleteCascades(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        try await store.write { tx in
            try await tx.insertUser(UserRecord(localID: "u1", phoneNumber: "+16505553434", createdAt: 1, validSince: Instant(secondsSince1970: 1)))
            try await tx.insertRefreshToken(
                RefreshTokenRecord(tokenHash: "h1", localID: "u1", createdAt: 1, authTime: Instant(secondsSince1970: 1), signInProvider: "phone"))
        }
        #expect(try await store.read { try await $0.refreshToken(hash: "h1") }?.localID == "u1")
        #expect(try await store.write { try await $0.deleteUser(tenant: .default, localID: "u1") })
        #expect(try await store.read { try await $0.refreshToken(hash: "h1") } == nil)
        #expect(try await store.write { try await $0.deleteUser(tenant: .default, localID: "u1") } == false)
        try await store.close()
    }

    @Test(
        "a refresh reads its token, the account and whether it has federated identities in one statement; a token without its account has none",
        arguments: Engine.all)
    func refreshSession(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        var user = UserRecord(localID: "u1", phoneNumber: "+16505553434", createdAt: 7, validSince: Instant(secondsSince1970: 1))
        user.displayName = "Ada"
        let token = RefreshTokenRecord(
            tokenHash: "h1", localID: "u1", createdAt: 9_000, authTime: Instant(secondsSince1970: 8), signInProvider: "phone",
            secondFactor: .totp, secondFactorID: "e1", developerClaims: #"{"role":"x"}"#)
        let orphan = RefreshTokenRecord(
            tokenHash: "h2", localID: "gone", createdAt: 1, authTime: Instant(secondsSince1970: 1), signInProvider: "password")
        try await store.write { [user] tx in
            try await tx.insertUser(user)
            try await tx.insertRefreshToken(token)
            try await tx.insertRefreshToken(orphan)
        }
        let session = try #require(try await store.read { try await $0.refreshSession(hash: "h1") })
        #expect(session.token == token)
        #expect(session.user?.localID == "u1" && session.user?.displayName == "Ada" && session.user?.createdAt == 7)
        #expect(!session.hasIdentities)
        try await store.write { tx in try await tx.linkFederatedIdentity(FederatedIdentityRecord(localID: "u1", providerID: "apple.com", rawID: "a"))
        }
        #expect(try await store.read { try await $0.refreshSession(hash: "h1") }?.hasIdentities == true)
        #expect(try await store.read { try await $0.refreshToken(hash: "h1") } == token)
        let lone = try #require(try await store.read { try await $0.refreshSession(hash: "h2") })
        #expect(lone.token == orphan && lone.user == nil)
        #expect(try await store.read { try await $0.refreshSession(hash: "h3") } == nil)
        try await store.close()
    }

    @Test("revocation deletes a user's refresh tokens (all, or those before a second) and keeps its generation", arguments: Engine.all)
    func revocation(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        try await store.write { tx in
            var user = UserRecord(localID: "u1", phoneNumber: "+16505553434", createdAt: 1, validSince: Instant(secondsSince1970: 1))
            user.revocationGeneration = 4
            try await tx.insertUser(user)
            try await tx.insertUser(UserRecord(localID: "u2", phoneNumber: "+16505553435", createdAt: 1, validSince: Instant(secondsSince1970: 1)))
            for (hash, owner, created) in [("a", "u1", Instant(millisecondsSince1970: 10)), ("b", "u1", 20), ("c", "u1", 30), ("d", "u2", 10)] {
                try await tx.insertRefreshToken(
                    RefreshTokenRecord(
                        tokenHash: hash, localID: owner, createdAt: created, authTime: Instant(secondsSince1970: 1), signInProvider: "phone"))
            }
        }
        #expect(try await store.read { try await $0.user(tenant: .default, localID: "u1") }?.revocationGeneration == 4)
        #expect(try await store.write { try await $0.lockedUser(tenant: .default, phoneNumber: "+16505553434") }?.localID == "u1")
        #expect(try await store.write { try await $0.deleteRefreshTokens(tenant: .default, localID: "u1", createdBefore: 20) } == 1)
        #expect(try await store.read { try await $0.refreshToken(hash: "a") } == nil)
        #expect(try await store.read { try await $0.refreshToken(hash: "b") } != nil)
        #expect(try await store.write { try await $0.deleteRefreshTokens(tenant: .default, localID: "u1", createdBefore: nil) } == 2)
        #expect(try await store.read { try await $0.refreshToken(hash: "c") } == nil)
        #expect(try await store.read { try await $0.refreshToken(hash: "d") } != nil, "another user's tokens stay")
        try await store.write { tx in
            guard var user = try await tx.lockedUser(tenant: .default, localID: "u1") else { throw StoreError.notFound }
            user.revocationGeneration += 1
            try await tx.updateUser(user)
        }
        #expect(try await store.read { try await $0.user(tenant: .default, localID: "u1") }?.revocationGeneration == 5)
        try await store.close()
    }

    @Test("committed data, keys and config survive a reopen", arguments: Engine.all)
    func durable(engine: Engine) async throws {
        let (store, file) = try await makeStore(engine)
        try await store.write { tx in
            try await tx.insertUser(UserRecord(localID: "u1", phoneNumber: "+16505553434", createdAt: 1, validSince: Instant(secondsSince1970: 1)))
            try await tx.addSigningKey(SigningKeyRecord(kid: "k1", privateKeyPEM: "p", certificatePEM: "c", createdAt: 1), retiringOthersAt: nil)
            try await tx.saveProjectConfig("{\"a\":1}")
            _ = try await tx.ensureMasterSecret("AQID")
        }
        try await store.close()
        let (again, _) = try await makeStore(engine, location: file)
        #expect(try await again.read { try await $0.user(tenant: .default, localID: "u1") }?.phoneNumber == "+16505553434")
        #expect(try await again.read { try await $0.signingKeys() }.map(\.kid) == ["k1"])
        #expect(try await again.read { try await $0.projectConfig() } == "{\"a\":1}")
        #expect(try await again.write { try await $0.ensureMasterSecret("CQk=") } == "AQID", "the first secret is kept")
        try await again.write {
            try await $0.replaceMasterSecret("sealed:v1:m")
            try await $0.replaceSigningPrivateKey(kid: "k1", with: "sealed:v1:k")
        }
        #expect(try await again.read { try await $0.masterSecret() } == "sealed:v1:m", "a replaced secret is kept")
        #expect(try await again.read { try await $0.signingKeys() }.map(\.privateKeyPEM) == ["sealed:v1:k"])
        try await again.close()
    }

    @Test("rotation retires the active key and adds a new one", arguments: Engine.all)
    func rotation(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        try await store.write {
            try await $0.addSigningKey(SigningKeyRecord(kid: "k1", privateKeyPEM: "p", certificatePEM: "c", createdAt: 1), retiringOthersAt: nil)
        }
        try await store.write {
            try await $0.addSigningKey(SigningKeyRecord(kid: "k2", privateKeyPEM: "p", certificatePEM: "c", createdAt: 2), retiringOthersAt: 5)
        }
        let keys = try await store.read { try await $0.signingKeys() }
        #expect(keys.map(\.kid) == ["k2", "k1"])
        #expect(keys.map(\.retiredAt) == [nil, 5])
        try await store.close()
    }

    @Test(
        "a scheduled key keeps its activation; a revocation marks the key revoked and retired, once, and the emergency key retires the rest",
        arguments: Engine.all)
    func scheduledAndRevokedKeys(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        try await store.write {
            try await $0.addSigningKey(SigningKeyRecord(kid: "k1", privateKeyPEM: "p", certificatePEM: "c", createdAt: 1), retiringOthersAt: nil)
        }
        try await store.write {
            try await $0.addSigningKey(
                SigningKeyRecord(kid: "k2", privateKeyPEM: "p", certificatePEM: "c", createdAt: 10, activatesAt: 100), retiringOthersAt: 100)
        }
        var keys = try await store.read { try await $0.signingKeys() }
        #expect(keys.map(\.kid) == ["k2", "k1"])
        #expect(keys.map(\.activatesAt) == [100, 1])
        #expect(keys.map(\.retiredAt) == [nil, 100], "the signing key retires when the scheduled one starts")
        #expect(keys.map(\.revokedAt) == [nil, nil])
        let revoked = try await store.write { tx in
            let done = try await tx.revokeSigningKey(kid: "k1", at: 20)
            try await tx.addSigningKey(SigningKeyRecord(kid: "k3", privateKeyPEM: "p", certificatePEM: "c", createdAt: 20), retiringOthersAt: 20)
            return done
        }
        #expect(revoked)
        keys = try await store.read { try await $0.signingKeys() }
        #expect(keys.map(\.kid) == ["k3", "k2", "k1"])
        #expect(keys.map(\.activatesAt) == [20, 100, 1])
        #expect(keys.map(\.retiredAt) == [nil, 20, 20], "the emergency key retires the scheduled key and the revoked one at once")
        #expect(keys.map(\.revokedAt) == [nil, nil, 20])
        #expect(try await store.write { try await $0.revokeSigningKey(kid: "k1", at: 30) } == false, "a key is revoked once")
        #expect(try await store.write { try await $0.revokeSigningKey(kid: "unknown", at: 30) } == false)
        #expect(try await store.read { try await $0.signingKeys() }.last?.revokedAt == 20)
        try await store.close()
    }

    @Test("many overlapping reads each get a connection of their own, and a closed store refuses reads", arguments: Engine.all)
    func overlappingReads(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        try await store.write {
            try await $0.insertUser(UserRecord(localID: "u1", phoneNumber: "+16505553434", createdAt: 1, validSince: Instant(secondsSince1970: 1)))
        }
        let found = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<50 {
                group.addTask { try await store.read { try await $0.user(tenant: .default, localID: "u1") } != nil }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(found == 50)
        try await store.close()
        await #expect(throws: StoreError.closed) { try await store.read { try await $0.userCount(tenant: .default) } }
    }
}
