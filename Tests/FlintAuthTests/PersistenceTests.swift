import FlintAuthTestSupport
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
}
