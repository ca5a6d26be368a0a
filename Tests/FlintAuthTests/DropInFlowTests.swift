import FlintAuthTestSupport
import FlintTesting
import Foundation
import Testing

@testable import FlintAuth

@Suite("FirebaseAuth drop-in behaviour against flint serve")
struct DropInFlowTests {
    @Test("with a tenant set, sign-up carries tenantId: a tenant the server does not have refuses it and nothing is created")
    func tenantSignIn() async throws {
        try await withFlint { server in
            let auth = server.makeAuth()
            auth.tenantID = "tenant-a"
            let email = uniqueEmail()
            await #expect(throws: (any Error).self, "TENANT_NOT_FOUND: never served from the project's users") {
                try await auth.createUser(withEmail: email, password: "correct horse")
            }
            #expect(auth.currentUser == nil)
            auth.tenantID = nil
            let plain = try await auth.createUser(withEmail: email, password: "correct horse")
            #expect(plain.user.tenantID == nil, "the refused sign-up stored no account under that email")
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
