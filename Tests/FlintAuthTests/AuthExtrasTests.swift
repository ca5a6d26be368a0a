import FlintAuthTestSupport
import FlintTesting
import Foundation
import Testing

@testable import FlintAuth

@Suite("signInAndRetrieveData and updateCurrentUser against flint serve")
struct AuthExtrasTests {
    @Test("signInAndRetrieveData(with:) signs in as signIn(with:) does")
    func signInAndRetrieveData() async throws {
        try await withFlint { server in
            let auth = server.makeAuth()
            let email = uniqueEmail()
            let created = try await auth.createUser(withEmail: email, password: "correct horse").user
            try auth.signOut()
            let result = try await auth.signInAndRetrieveData(with: EmailAuthProvider.credential(withEmail: email, password: "correct horse"))
            #expect(result.user.uid == created.uid)
            #expect(result.additionalUserInfo?.providerID == "password")
            #expect(auth.currentUser === result.user)

            try auth.signOut()
            let viaCompletion: String? = await withCheckedContinuation { continuation in
                auth.signInAndRetrieveData(with: EmailAuthProvider.credential(withEmail: email, password: "correct horse")) { result, _ in
                    continuation.resume(returning: result?.user.uid)
                }
            }
            #expect(viaCompletion == created.uid)
        }
    }

    @Test("updateCurrentUser moves a user of another app with the same API key, stores it and tells the listener")
    func updateCurrentUserSameKey() async throws {
        try await withFlint { server in
            let first = server.makeAuth()
            let user = try await first.createUser(withEmail: uniqueEmail(), password: "correct horse").user
            let second = server.makeAuth()
            let log = ListenerLog()
            let handle = second.addStateDidChangeListener { _, user in log.record(user) }
            #expect(try await log.waitFor(1) == [nil])

            try await second.updateCurrentUser(user)
            #expect(second.currentUser === user)
            #expect(try #require(second.store.load()).profile.uid == user.uid)
            #expect(try await log.waitFor(2) == [nil, user.uid])
            second.removeStateDidChangeListener(handle)
        }
    }

    @Test("updateCurrentUser with another API key reloads the user through this app and makes a copy current")
    func updateCurrentUserOtherKey() async throws {
        try await withFlint { server in
            let first = server.makeAuth()
            let user = try await first.createUser(withEmail: uniqueEmail(), password: "correct horse").user
            let name = "other-key-\(UUID().uuidString)"
            FlintApp.configure(name: name, options: FlintOptions(apiKey: "another-key", projectID: "demo-flint"))
            let app = try #require(FlintApp.app(name: name))
            let other = Auth(app: app, storeDirectory: URL(fileURLWithPath: server.directory).appendingPathComponent("store-\(name)"))
            other.useEmulator(withHost: "127.0.0.1", port: server.port)

            try await other.updateCurrentUser(user)
            let current = try #require(other.currentUser)
            #expect(current.uid == user.uid)
            #expect(current.email == user.email)
            #expect(current.backend.configuration.current.apiKey == "another-key")
        }
    }

    @Test("updateCurrentUser(nil) in the completion form is nullUser")
    func updateCurrentUserNil() async throws {
        try await withFlint { server in
            let auth = server.makeAuth()
            let error: (any Error)? = await withCheckedContinuation { continuation in
                auth.updateCurrentUser(nil) { continuation.resume(returning: $0) }
            }
            #expect(error.flatMap(authCode) == AuthErrorCode.nullUser.rawValue)
        }
    }
}
