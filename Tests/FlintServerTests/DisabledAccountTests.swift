import FlintCore
import FlintServerTestSupport
import FlintStore
import FlintTesting
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import FlintServer

/// An account the operator disabled answers `USER_DISABLED` to its own ID token on every call, as Firebase does,
/// although disabling also ended its sessions (which alone would answer `TOKEN_EXPIRED`).
@Suite("A disabled account's ID token")
struct DisabledAccountTests {
    /// The calls an app makes with the signed-in user's ID token, each as Firebase's SDKs send it.
    static let calls: [(name: String, path: String, fields: [String: String])] = [
        ("update email", "\(Path.v1)/accounts:update", ["email": "new@example.com"]),
        ("update profile", "\(Path.v1)/accounts:update", ["displayName": "Ada"]),
        ("link email and password", "\(Path.v1)/accounts:update", ["email": "ada@example.com", "password": "correct horse"]),
        ("verify email", "\(Path.v1)/accounts:sendOobCode", ["requestType": "VERIFY_EMAIL"]),
        ("look up the account", Path.lookup, [:]),
    ]

    @Test("answers USER_DISABLED to every call once the operator disabled it", arguments: 0..<calls.count)
    func disabledBeforeRevoked(_ index: Int) async throws {
        let call = Self.calls[index]
        try await withFlint { api in
            let user = try await api.signUp("ada@example.com")
            let disable = try await api.admin(Path.adminUpdate, ["localId": .string(user.localId), "disableUser": true])
            #expect(disable.status == .ok, "\(disable.text)")
            var fields = call.fields
            fields["idToken"] = user.idToken
            let reply = try await api.post(call.path, fields)
            #expect(reply.errorCode == "USER_DISABLED", "\(call.name): \(reply.text)")
        }
    }

    @Test("answers USER_DISABLED when it links a phone number, and the code is spent")
    func linkPhone() async throws {
        try await withFlint { api in
            let user = try await api.signUp("ada@example.com")
            _ = try await api.admin(Path.adminUpdate, ["localId": .string(user.localId), "disableUser": true])
            let sessionInfo = try await api.sendCode("+16505550199")
            let code = try await api.pendingCode(for: "+16505550199")
            let reply = try await api.verify(sessionInfo, code: code, extra: ["idToken": user.idToken])
            #expect(reply.errorCode == "USER_DISABLED", "\(reply.text)")
        }
    }

    @Test("once enabled again, a token minted before the disabling is still ended: TOKEN_EXPIRED")
    func enabledAgainKeepsRevocation() async throws {
        try await withFlint { api in
            let user = try await api.signUp("ada@example.com")
            _ = try await api.admin(Path.adminUpdate, ["localId": .string(user.localId), "disableUser": true])
            _ = try await api.admin(Path.adminUpdate, ["localId": .string(user.localId), "disableUser": false])
            #expect(try await api.lookup(user.idToken).errorCode == "TOKEN_EXPIRED")
            #expect(try await api.signInWithPassword("ada@example.com", "correct horse").status == .ok)
        }
    }
}
