import FlintAuthTestSupport
import FlintTesting
import Foundation
import Testing

@testable import FlintAuth

@Suite("FirebaseAuth drop-in behaviour against flint serve")
struct DropInFlowTests {
    @Test("with a tenant set, sign-up carries tenantId: an unknown tenant refuses it and nothing is created")
    func unknownTenant() async throws {
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

    @Test("Auth.tenantID signs users up and in to that tenant: User.tenantID and the token's firebase.tenant name it")
    func tenantSignIn() async throws {
        try await withFlint { server in
            let (status, data) = try await server.send(
                "POST", "/identitytoolkit.googleapis.com/v2/projects/demo-flint/tenants",
                body: Data(#"{"displayName":"flintauth","allowPasswordSignup":true}"#.utf8), headers: ["Authorization": "Bearer owner"])
            #expect(status == 200, "\(String(decoding: data, as: UTF8.self))")
            let name = try #require((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["name"] as? String)
            let tenant = String(try #require(name.split(separator: "/").last))
            let auth = server.makeAuth()
            auth.tenantID = tenant
            let email = uniqueEmail()
            let created = try await auth.createUser(withEmail: email, password: "tenant horse")
            #expect(created.user.tenantID == tenant)
            let claims = try await created.user.getIDTokenResult(forcingRefresh: true).claims
            #expect((claims["firebase"] as? [String: Any])?["tenant"] as? String == tenant, "a refreshed token keeps its tenant")
            try auth.signOut()
            let again = try await auth.signIn(withEmail: email, password: "tenant horse")
            #expect(again.user.uid == created.user.uid)
            auth.tenantID = nil
            await #expect(throws: (any Error).self, "the project has no such account") {
                try await auth.signIn(withEmail: email, password: "tenant horse")
            }
        }
    }

    @Test("Auth.tenantID: a tenant user enrols a TOTP factor under the tenant's mfaConfig and resolves its sign-in in the tenant")
    func tenantSecondFactor() async throws {
        try await withFlint { server in
            let document: [String: Any] = [
                "displayName": "flintmfa", "allowPasswordSignup": true,
                "mfaConfig": [
                    "state": "ENABLED", "enabledProviders": ["PHONE_SMS"],
                    "providerConfigs": [["state": "ENABLED", "totpProviderConfig": ["adjacentIntervals": 2]]],
                ],
            ]
            let (status, data) = try await server.send(
                "POST", "/identitytoolkit.googleapis.com/v2/projects/demo-flint/tenants", body: try JSONSerialization.data(withJSONObject: document),
                headers: ["Authorization": "Bearer owner"])
            #expect(status == 200, "\(String(decoding: data, as: UTF8.self))")
            let name = try #require((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["name"] as? String)
            let tenant = String(try #require(name.split(separator: "/").last))
            // The tenant's operator creates the account with its email verified (enrolment needs it).
            let email = uniqueEmail()
            let account = try JSONSerialization.data(withJSONObject: ["email": email, "password": "tenant horse", "emailVerified": true])
            let (created, createdData) = try await server.send(
                "POST", "/identitytoolkit.googleapis.com/v1/projects/demo-flint/tenants/\(tenant)/accounts", body: account,
                headers: ["Authorization": "Bearer owner"])
            #expect(created == 200, "\(String(decoding: createdData, as: UTF8.self))")

            let auth = server.makeAuth()
            auth.tenantID = tenant
            let user = try await auth.signIn(withEmail: email, password: "tenant horse").user
            let secret = try await TOTPMultiFactorGenerator.generateSecret(with: try await user.multiFactor.session())
            let key = secret.sharedSecretKey()
            try await user.multiFactor.enroll(
                with: TOTPMultiFactorGenerator.assertionForEnrollment(with: secret, oneTimePassword: MultiFactorFlowTests.totp(key, offset: 0)),
                displayName: "Phone app")
            #expect(try await user.getIDTokenResult().signInSecondFactor == "totp")

            try auth.signOut()
            let error = try await server.expectSecondFactor { try await auth.signIn(withEmail: email, password: "tenant horse") }
            let resolver = try #require(error.userInfo[AuthErrorUserInfoMultiFactorResolverKey] as? MultiFactorResolver)
            let hint = try #require(resolver.hints.first)
            let result = try await resolver.resolveSignIn(
                with: TOTPMultiFactorGenerator.assertionForSignIn(
                    withEnrollmentID: hint.uid, oneTimePassword: MultiFactorFlowTests.totp(key, offset: 1)))
            #expect(result.user.uid == user.uid && result.user.tenantID == tenant)
            let claims = try await result.user.getIDTokenResult().claims
            #expect((claims["firebase"] as? [String: Any])?["tenant"] as? String == tenant)
            #expect(try await result.user.getIDTokenResult().signInSecondFactor == "totp")
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
