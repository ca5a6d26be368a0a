import Foundation
import Testing

@testable import FlintAuth

@Suite("FirebaseAuth drop-in behaviour")
struct DropInTests {
    private static func auth(_ directory: URL) -> Auth {
        let name = "dropin-\(UUID().uuidString.prefix(8))"
        FlintApp.configure(name: name, options: FlintOptions(apiKey: "k-\(name)", projectID: "demo-flint"))
        return Auth(app: FlintApp.app(name: name)!, storeDirectory: directory)
    }

    private static func directory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("dropin-\(UUID().uuidString)", isDirectory: true)
    }

    @Test("tenantId is added to request bodies, except the ones FirebaseAuth sends without it")
    func tenantInBody() throws {
        let body = try Backend.body(SignUpRequest(email: "a@example.com", password: "p"), tenantID: "t1")
        let object = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        #expect(object["tenantId"] as? String == "t1")
        #expect(object["email"] as? String == "a@example.com")
        let plain = try JSONSerialization.jsonObject(with: try Backend.body(SignUpRequest(), tenantID: nil)) as? [String: Any]
        #expect(plain?["tenantId"] == nil)
        #expect(Backend.tenantlessPaths.contains("/v1/accounts:lookup"))
        let auth = Self.auth(Self.directory())
        auth.tenantID = "t1"
        #expect(auth.backend.configuration.current.tenantID == "t1")
    }

    @Test("A user stored in an access group is shared by instances that use the group, and the choice is remembered")
    func accessGroup() async throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let auth = Self.auth(directory)
        try auth.useUserAccessGroup("TEAM.shared")
        #expect(auth.userAccessGroup == "TEAM.shared")
        #expect(auth.currentUser == nil)
        var profile = UserProfile(uid: "u1")
        profile.email = "a@example.com"
        let user = User(
            profile: profile, tokens: .init(accessToken: "a", refreshToken: "r", expirationDate: Date().addingTimeInterval(3600)),
            backend: auth.backend, auth: auth)
        try await auth.makeCurrent(user)
        let stored = try #require(try auth.getStoredUser(forAccessGroup: "TEAM.shared"))
        #expect(stored.uid == "u1")
        #expect(stored != user)  // another object: equality is identity, as FirebaseAuth's
        #expect(try auth.getStoredUser(forAccessGroup: nil) == nil)
        let again = Auth(app: auth.flintApp, storeDirectory: directory)
        #expect(again.userAccessGroup == "TEAM.shared")
        #expect(again.currentUser?.uid == "u1")
        try again.useUserAccessGroup(nil)
        #expect(again.userAccessGroup == nil)
        #expect(again.currentUser == nil)
    }

    @Test("A removed listener is not called again, and authStateChanges yields the current user")
    func listeners() async throws {
        let auth = Self.auth(Self.directory())
        let calls = Locked(0)
        let handle: AuthStateDidChangeListenerHandle = auth.addStateDidChangeListener { _, _ in calls.withLock { $0 += 1 } }
        auth.removeStateDidChangeListener(handle)
        #expect(auth.state.current.stateListeners.isEmpty)
        var iterator = auth.authStateChanges.makeAsyncIterator()
        let first = await iterator.next()
        #expect(first != nil && first! == nil)
        #expect(auth.state.current.stateListeners.count == 1)
    }

    @Test("updateCurrentUser refuses a user of another tenant")
    func tenantMismatch() async throws {
        let auth = Self.auth(Self.directory())
        var profile = UserProfile(uid: "u1")
        profile.tenantID = "other"
        let user = User(
            profile: profile, tokens: .init(accessToken: "a", refreshToken: "r", expirationDate: Date().addingTimeInterval(3600)),
            backend: auth.backend, auth: auth)
        let error = await #expect(throws: NSError.self) { try await auth.updateCurrentUser(user) }
        #expect(error?.code == AuthErrorCode.tenantIDMismatch.rawValue)
    }
}
