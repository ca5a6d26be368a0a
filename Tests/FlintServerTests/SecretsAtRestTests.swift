import FlintCore
import FlintServerTestSupport
import FlintStore
import FlintTesting
import Foundation
import HTTPTypes
import Logging
import Testing

@testable import FlintServer

/// The signing keys' private halves and the server secret are sealed with the operator's master key in the store.
@Suite("secrets at rest")
struct SecretsAtRestTests {
    /// A node on the SQLite file at `path` with `key` as its master key.
    private func node(_ path: String, key: MasterKey?) async throws -> TestNode {
        try await TestNode.make(path: path) { $0.masterKey = key }
    }

    /// The stored secrets of the file at `path`, as their rows hold them.
    private func storedSecrets(_ path: String) async throws -> [String] {
        let store = try await SQLiteStore(path: path, logger: .init(label: "read"))
        let (server, keys) = try await store.read { r in (try await r.masterSecret(), try await r.signingKeys()) }
        try await store.close()
        return [server].compactMap { $0 } + keys.map(\.privateKeyPEM)
    }

    /// Every byte of the database file and its write-ahead log.
    private func fileBytes(_ path: String) -> Data {
        [path, path + "-wal"].reduce(into: Data()) { all, file in all += FileManager.default.contents(atPath: file) ?? Data() }
    }

    @Test("with a master key, the store holds no private key PEM and no server secret in clear, in its rows or its file")
    func nothingInClear() async throws {
        let path = temporaryDatabasePath()
        let key = MasterKey.generate()
        let first = try await node(path, key: key)
        _ = try await first.run { api in try await api.signIn(alice) }
        let stored = try await storedSecrets(path)
        #expect(stored.count == 2 && stored.allSatisfy { $0.hasPrefix("sealed:v1:\(key.id):") })
        let secrets = SecretsAtRest(masterKey: key)
        let serverSecret = try secrets.openServerSecret(stored[0])
        #expect(serverSecret.count == 32)
        let bytes = fileBytes(path)
        #expect(bytes.range(of: Data("PRIVATE KEY".utf8)) == nil)
        #expect(bytes.range(of: Data(Data(serverSecret).base64EncodedString().utf8)) == nil)
        #expect(bytes.range(of: Data(serverSecret)) == nil)
        #expect(bytes.range(of: Data(key.base64.utf8)) == nil, "the master key is never stored")
        let reader = try await SQLiteStore(path: path, logger: .init(label: "status"))
        #expect(try await SecretsStatus.read(from: reader) == SecretsStatus(inClear: 0, sealedByKey: [key.id: 2]))
        try await reader.close()
    }

    @Test("a store kept in clear is sealed at the first start with a master key; keys, sessions and codes carry on")
    func sealsAStoreKeptInClear() async throws {
        let path = temporaryDatabasePath()
        let before = try await node(path, key: nil)
        let (signed, jwks) = try await before.run { api in (try await api.signIn(alice), try await api.call(.get, Path.jwks)["keys"]) }
        #expect(try await storedSecrets(path).allSatisfy { !$0.hasPrefix("sealed:") }, "without a key, as before encryption at rest")
        let reader = try await SQLiteStore(path: path, logger: .init(label: "status"))
        #expect(try await SecretsStatus.read(from: reader) == SecretsStatus(inClear: 2, sealedByKey: [:]), "doctor's view: two in clear")
        try await reader.close()

        let key = MasterKey.generate()
        let after = try await node(path, key: key)
        try await after.run { api in
            #expect(try await api.call(.get, Path.jwks)["keys"] == jwks, "the same keys are published")
            let refreshed = try await api.refresh(signed.refreshToken)
            #expect(refreshed.status == .ok, "a refresh token from before refreshes: \(refreshed.text)")
            #expect(try await api.lookup(signed.idToken).status == .ok, "an ID token from before verifies")
        }
        #expect(try await storedSecrets(path).allSatisfy { $0.hasPrefix("sealed:v1:\(key.id):") })
        #expect(fileBytes(path).range(of: Data("PRIVATE KEY".utf8)) == nil, "nothing of the clear values is left in the file")
    }

    @Test("a wrong master key, or none for a sealed store, refuses to start and changes nothing")
    func wrongKeyRefuses() async throws {
        let path = temporaryDatabasePath()
        let key = MasterKey.generate()
        try await node(path, key: key).run { _ in }
        let stored = try await storedSecrets(path)
        let other = MasterKey.generate()
        await #expect(throws: MasterKeyError.wrongKey(stored: key.id, given: other.id)) { _ = try await node(path, key: other) }
        await #expect(throws: MasterKeyError.wrongKey(stored: key.id, given: nil)) { _ = try await node(path, key: nil) }
        #expect(try await storedSecrets(path) == stored)
        let store = try await SQLiteStore(path: path, logger: .init(label: "rotate"))
        await #expect(throws: MasterKeyError.self, "a rotation with the wrong key adds no key") {
            _ = try await FlintServer.rotateKeys(store: store, masterKey: other)
        }
        #expect(try await store.read { try await $0.signingKeys() }.count == 1)
        try await store.close()
    }

    @Test("rewrap seals every secret under the new key in one go: the same keys are published and old refresh tokens refresh")
    func rewrap() async throws {
        let path = temporaryDatabasePath()
        let old = MasterKey.generate()
        let first = try await node(path, key: old)
        let (signed, jwks, pending) = try await first.run { api in
            (try await api.signIn(alice), try await api.call(.get, Path.jwks)["keys"], try await api.sendCode(bob))
        }
        let new = MasterKey.generate()
        let store = try await SQLiteStore(path: path, logger: .init(label: "rewrap"))
        await #expect(throws: MasterKeyError.wrongKey(stored: old.id, given: new.id), "the old key must be the right one") {
            _ = try await SecretsAtRest(masterKey: new).rewrap(store: store, to: old)
        }
        #expect(try await SecretsAtRest(masterKey: old).rewrap(store: store, to: new) == 2)
        try await store.close()
        #expect(try await storedSecrets(path).allSatisfy { $0.hasPrefix("sealed:v1:\(new.id):") })

        await #expect(throws: MasterKeyError.wrongKey(stored: new.id, given: old.id)) { _ = try await node(path, key: old) }
        try await node(path, key: new).run { api in
            #expect(try await api.call(.get, Path.jwks)["keys"] == jwks)
            #expect(try await api.refresh(signed.refreshToken).status == .ok)
            let code = try await api.pendingCode(for: bob)
            let verified = try await api.verify(pending, code: code)
            #expect(verified.status == .ok, "a sessionInfo from before opens: the server secret is the same: \(verified.text)")
        }
    }

    @Test("settings, the master key and the server secret print without any credential (services holding them are logged)")
    func printsNoCredential() throws {
        var settings = ServerSettings()
        settings.adminToken = "admin-credential-value"
        settings.apiKeys = ["api-key-value"]
        settings.metricsToken = "metrics-token-value"
        let key = MasterKey.generate()
        settings.masterKey = key
        let printed = String(describing: settings) + String(reflecting: settings) + String(describing: [settings])
        for secret in ["admin-credential-value", "api-key-value", "metrics-token-value", key.base64] { #expect(!printed.contains(secret)) }
        #expect(printed.contains(key.id))
        #expect(String(describing: key) == "MasterKey(\(key.id))")
        #expect(String(describing: ServerSecret(master: Array(repeating: 7, count: 32))) == "ServerSecret(…)")
    }
}
