import FlintAuthTestSupport
import FlintTesting
import Foundation
import Testing

@testable import FlintAuth

@Suite("Persistence against flint serve")
struct PersistenceTests {
    @Test("a new Auth for the same app restores the user from a 0600 file, and signOut removes it")
    func restoresUser() async throws {
        try await withFlint { server in
            let name = "persist-\(UUID().uuidString)"
            let directory = URL(fileURLWithPath: server.directory).appendingPathComponent("store")
            let first = server.makeAuth(appName: name, storeDirectory: directory)
            let email = uniqueEmail()
            try await first.createUser(withEmail: email, password: "correct horse")
            let uid = try #require(first.currentUser?.uid)

            let path = try #require(first.store as? UserStore).fileURL.path
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)

            let second = server.makeAuth(appName: name, storeDirectory: directory)
            let restored = try #require(second.currentUser)
            #expect(restored.uid == uid)
            #expect(restored.email == email)
            let token = try await restored.getIDToken(forcingRefresh: true)
            #expect(try AuthTokenResult(token: token).claims["user_id"] as? String == uid)
            try await restored.reload()
            #expect(restored.email == email)

            try second.signOut()
            #expect(!FileManager.default.fileExists(atPath: path))
            #expect(server.makeAuth(appName: name, storeDirectory: directory).currentUser == nil)
        }
    }

    @Test("a user that could not be read at start (a locked Keychain) is restored later, once, and the listeners hear it")
    func lateRestore() async throws {
        try await withFlint { server in
            let name = "late-\(UUID().uuidString)"
            let directory = URL(fileURLWithPath: server.directory).appendingPathComponent("late")
            let writer = server.makeAuth(appName: name, storeDirectory: directory)
            let uid = try await writer.createUser(withEmail: uniqueEmail(), password: "correct horse").user.uid
            let path = try #require(writer.store as? UserStore).fileURL
            let saved = try Data(contentsOf: path)
            try FileManager.default.removeItem(at: path)  // "locked": nothing readable when the next Auth starts

            let auth = server.makeAuth(appName: name, storeDirectory: directory)
            #expect(auth.currentUser == nil)
            let log = ListenerLog()
            auth.addStateDidChangeListener { _, user in log.record(user) }
            _ = try await log.waitFor(1)
            try saved.write(to: path)  // "unlocked"
            auth.restoreStoredUserIfNone()
            #expect(auth.currentUser?.uid == uid)
            #expect(try await log.waitFor(2) == [nil, uid])
            let first = auth.currentUser
            auth.restoreStoredUserIfNone()
            #expect(auth.currentUser === first)  // a user already there is kept
        }
    }
}
