import FlintCore
import FlintServerTestSupport
import FlintStore
import FlintTesting
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import FlintServer

@Suite("Revocation by validSince")
struct RevocationTests {
    @Test("after validSince moves past a session, its refresh token and ID token answer TOKEN_EXPIRED")
    func validSinceBump() async throws {
        let node = try await TestNode.make()
        try await node.server.application.test(.router) { client in
            let api = API(client: client, clock: node.clock)
            let signedIn = try await api.signIn("+16505553434")
            node.clock.advance(by: .seconds(10))
            let bumpTo = node.clock.now().wholeSecond
            try await node.store.write { tx in
                guard var user = try await tx.user(tenant: .default, localID: signedIn.localId) else { throw StoreError.notFound }
                user.validSince = bumpTo
                try await tx.updateUser(user)
            }
            #expect(try await api.refresh(signedIn.refreshToken).errorCode == "TOKEN_EXPIRED")
            #expect(try await api.lookup(signedIn.idToken).errorCode == "TOKEN_EXPIRED")

            let again = try await api.signIn("+16505553434")
            #expect(try await api.refresh(again.refreshToken).status == .ok, "a sign-in after the bump works")
            #expect(try await api.lookup(again.idToken).status == .ok)
        }
        try await node.store.close()
    }

    @Test("a disabled user can neither refresh nor sign in")
    func disabled() async throws {
        let node = try await TestNode.make()
        try await node.server.application.test(.router) { client in
            let api = API(client: client, clock: node.clock)
            let signedIn = try await api.signIn("+16505553434")
            try await node.store.write { tx in
                guard var user = try await tx.user(tenant: .default, localID: signedIn.localId) else { throw StoreError.notFound }
                user.disabled = true
                try await tx.updateUser(user)
            }
            #expect(try await api.refresh(signedIn.refreshToken).errorCode == "USER_DISABLED")
            #expect(try await api.lookup(signedIn.idToken).errorCode == "USER_DISABLED")
            let sessionInfo = try await api.sendCode("+16505553434")
            let code = try await api.pendingCode(for: "+16505553434")
            #expect(try await api.verify(sessionInfo, code: code).errorCode == "USER_DISABLED")
            #expect(try await api.verify(sessionInfo, code: code).errorCode == "INVALID_SESSION_INFO", "the code was spent all the same")
        }
        try await node.store.close()
    }
}
