import FlintAuthTestSupport
import FlintTesting
import Foundation
import Testing

@testable import FlintAuth

@Suite("FirebaseAuth drop-in behaviour against flint serve")
struct DropInFlowTests {
    @Test("with a tenant set, sign-up and sign-in carry tenantId and the user keeps the tenant across a restore")
    func tenantSignIn() async throws {
        try await withFlint { server in
            let auth = server.makeAuth()
            auth.tenantID = "tenant-a"
            let email = uniqueEmail()
            let created = try await auth.createUser(withEmail: email, password: "correct horse")
            #expect(created.user.tenantID == "tenant-a")
            try await created.user.reload()
            #expect(created.user.tenantID == "tenant-a")
            let restored = Auth(app: auth.flintApp, storeDirectory: auth.storeDirectory)
            #expect(restored.currentUser?.tenantID == "tenant-a")
            #expect(restored.tenantID == "tenant-a")
            try auth.signOut()
            auth.tenantID = nil
            let plain = try await auth.signIn(withEmail: email, password: "correct horse")
            #expect(plain.user.tenantID == nil)
            #expect(plain.additionalUserInfo?.profile == nil)
            #expect(plain.additionalUserInfo?.username == nil)
        }
    }

    @Test("a password reset without settings and one with nil settings both send the email")
    func passwordResetOptionalSettings() async throws {
        try await withFlint { server in
            let auth = server.makeAuth()
            let email = uniqueEmail()
            try await auth.createUser(withEmail: email, password: "correct horse")
            try await auth.sendPasswordReset(withEmail: email)
            try await auth.sendPasswordReset(withEmail: email, actionCodeSettings: nil)
        }
    }
}
