import FlintCore
import FlintServerTestSupport
import FlintStore
import FlintTesting
import Foundation
import HTTPTypes
import Testing

@testable import FlintServer

/// Users imported with hashes made by an independent implementation (scripts/hash-vectors.py) sign in over HTTP,
/// and their hash is replaced by Flint's own.
@Suite("Import: imported password hashes sign in")
struct ImportedSignInTests {
    struct Vector: CustomTestStringConvertible, Sendable {
        let name: String
        let options: [String: JSONValue]
        let password: String
        let salt: String
        let hash: String
        var testDescription: String { name }
    }

    /// The vectors with a password one can sign in with (sign-in refuses an empty one).
    static let vectors: [Vector] = importedHashVectors.filter { !$0.password.isEmpty }.map {
        let options = (try? JSONValue(parsing: Array($0.wire.utf8)))?.objectValue ?? [:]
        return Vector(name: $0.name, options: options, password: $0.password, salt: $0.salt, hash: $0.hash)
    }

    /// The stored hash of a user.
    static func storedHash(_ store: SQLiteStore, _ localID: String) async throws -> String? {
        try await store.read { try await $0.user(tenant: .default, localID: localID) }?.passwordHash
    }

    @Test("a vector's user signs in; a wrong password does not; afterwards the stored hash is Flint's", arguments: vectors)
    func signIn(_ vector: Vector) async throws {
        let node = try await TestNode.make()
        let store = node.store
        try await node.run { api in
            let user: JSONValue = [
                "localId": "vector-user", "email": "vector@example.com", "passwordHash": .string(vector.hash), "salt": .string(vector.salt),
            ]
            let reply = try await api.batchCreate([user], vector.options)
            #expect(reply.status == .ok && reply.importErrors.isEmpty, "\(reply.text)")
            let imported = try #require(try await Self.storedHash(store, "vector-user"))
            #expect(PasswordHash.isImported(imported))

            let wrong = try await api.signInWithPassword("vector@example.com", "x" + vector.password)
            #expect(wrong.errorCode == "INVALID_LOGIN_CREDENTIALS", "\(wrong.text)")
            #expect(try await Self.storedHash(store, "vector-user") == imported)

            let good = try await api.signInWithPassword("vector@example.com", vector.password)
            #expect(good.status == .ok, "\(good.text)")
            #expect(good.string("localId") == "vector-user")
            let rehashed = try #require(try await Self.storedHash(store, "vector-user"))
            #expect(rehashed.hasPrefix("$scrypt$ln=10,"))
            #expect(!PasswordHash.isImported(rehashed))

            let again = try await api.signInWithPassword("vector@example.com", vector.password)
            #expect(again.status == .ok, "\(again.text)")
        }
    }

    @Test("an imported user with a second factor is challenged, and its hash is replaced at the first factor")
    func secondFactor() async throws {
        let vector = try #require(Self.vectors.first { $0.name.hasPrefix("SHA256") })
        let node = try await TestNode.make()
        let store = node.store
        try await node.run { api in
            try await api.enableMFA()
            let user: JSONValue = [
                "localId": "mfa-user", "email": "mfa@example.com", "emailVerified": true, "passwordHash": .string(vector.hash),
                "salt": .string(vector.salt), "mfaInfo": [["phoneInfo": .string(bob), "displayName": "phone"]],
            ]
            let reply = try await api.batchCreate([user], vector.options)
            #expect(reply.importErrors.isEmpty, "\(reply.text)")
            let challenge = try await api.signInWithPassword("mfa@example.com", vector.password)
            #expect(challenge.status == .ok, "\(challenge.text)")
            #expect(challenge.string("mfaPendingCredential") != nil)
            #expect(challenge["mfaInfo"]?.arrayValue?.count == 1)
            let rehashed = try #require(try await Self.storedHash(store, "mfa-user"))
            #expect(rehashed.hasPrefix("$scrypt$"))
        }
    }

    @Test("rawPassword is hashed by the server, as the emulator takes it")
    func rawPassword() async throws {
        try await withFlint { api in
            let reply = try await api.batchCreate([["localId": "raw", "email": "raw@example.com", "rawPassword": "plain-password"]])
            #expect(reply.importErrors.isEmpty, "\(reply.text)")
            #expect(try await api.signInWithPassword("raw@example.com", "plain-password").status == .ok)
        }
    }
}
