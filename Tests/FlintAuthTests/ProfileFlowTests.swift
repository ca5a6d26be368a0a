import FlintAuthTestSupport
import FlintTesting
import Foundation
import Testing

@testable import FlintAuth

@Suite("User profile, password, email and providers against flint serve")
struct ProfileFlowTests {
    @Test("a profile change request sets the display name and photo URL, stored and sent in the next token")
    func profileChange() async throws {
        try await withFlint { server in
            let auth = server.makeAuth()
            let user = try await auth.createUser(withEmail: uniqueEmail(), password: "correct horse").user
            let change = user.createProfileChangeRequest()
            change.displayName = "Ada Lovelace"
            change.photoURL = URL(string: "https://example.com/ada.png")
            try await change.commitChanges()
            #expect(user.displayName == "Ada Lovelace")
            #expect(user.photoURL?.absoluteString == "https://example.com/ada.png")
            let claims = try await user.getIDTokenResult(forcingRefresh: true).claims
            #expect(claims["name"] as? String == "Ada Lovelace")
            #expect(try #require(auth.store.load()).profile.displayName == "Ada Lovelace")
            await expectAuthError(.internalError, "a request was committed twice") { try await change.commitChanges() }
        }
    }

    @Test("the completion form of commitChanges reports success")
    func profileChangeCompletion() async throws {
        try await withFlint { server in
            let auth = server.makeAuth()
            let user = try await auth.createUser(withEmail: uniqueEmail(), password: "correct horse").user
            let change = user.createProfileChangeRequest()
            change.displayName = "Grace"
            let error: (any Error)? = await withCheckedContinuation { continuation in
                change.commitChanges { continuation.resume(returning: $0) }
            }
            #expect(error == nil)
            #expect(user.displayName == "Grace")
        }
    }

    @Test("updatePassword takes the new tokens, tells the ID-token listener, and the new password signs in")
    func updatePassword() async throws {
        try await withFlint { server in
            let auth = server.makeAuth()
            let email = uniqueEmail()
            let user = try await auth.createUser(withEmail: email, password: "correct horse").user
            _ = try await user.getIDToken()
            let refreshBefore = try #require(user.refreshToken)
            let log = ListenerLog()
            let handle = auth.addIDTokenDidChangeListener { _, user in log.record(user) }
            _ = try await log.waitFor(1)

            try await user.updatePassword(to: "battery staple")
            // The answer's tokens are taken: a new refresh token (the ID token may be the same text when issued within
            // the same second as the old one).
            #expect(user.refreshToken != refreshBefore)
            #expect(try await user.getIDTokenResult().claims["sub"] as? String == user.uid)
            #expect(try await log.waitFor(2).count == 2)
            #expect(try #require(auth.store.load()).tokens.refreshToken == user.refreshToken)
            auth.removeIDTokenDidChangeListener(handle)

            try auth.signOut()
            await expectAuthError(.invalidCredential, "the old password still signs in") {
                try await auth.signIn(withEmail: email, password: "correct horse")
            }
            #expect(try await auth.signIn(withEmail: email, password: "battery staple").user.uid == user.uid)
        }
    }

    @Test("a weak new password is weakPassword (17026)")
    func weakPassword() async throws {
        try await withFlint { server in
            let auth = server.makeAuth()
            let user = try await auth.createUser(withEmail: uniqueEmail(), password: "correct horse").user
            await expectAuthError(.weakPassword, "a weak password was accepted") { try await user.updatePassword(to: "abc") }
        }
    }

    @Test("updateEmail changes the address at once, unverified")
    func updateEmail() async throws {
        try await withFlint { server in
            let auth = server.makeAuth()
            let user = try await auth.createUser(withEmail: uniqueEmail(), password: "correct horse").user
            let newEmail = uniqueEmail()
            try await user.updateEmail(to: newEmail)
            #expect(user.email == newEmail)
            #expect(!user.isEmailVerified)
            #expect(try await user.getIDTokenResult().claims["email"] as? String == newEmail)
            try auth.signOut()
            #expect(try await auth.signIn(withEmail: newEmail, password: "correct horse").user.uid == user.uid)
        }
    }

    @Test("unlink removes a provider; an absent one is noSuchProvider")
    func unlink() async throws {
        try await withFlint { server in
            let auth = server.makeAuth()
            let user = try await auth.signInAnonymously().user
            try await user.link(with: EmailAuthProvider.credential(withEmail: uniqueEmail(), password: "correct horse"))
            #expect(user.providerData.map(\.providerID) == ["password"])
            await expectAuthError(.noSuchProvider, "unlinked a provider the account lacks") { try await user.unlink(fromProvider: "phone") }
            let returned = try await user.unlink(fromProvider: "password")
            #expect(returned === user)
            #expect(user.providerData.isEmpty)
            #expect(user.email == nil)
        }
    }

    @Test("updatePhoneNumber puts a fictional number on an email account; unlinking phone removes it")
    func updatePhoneNumber() async throws {
        try await withFlint { server in
            let number = "+16505550199"
            try await server.enablePhone(testNumbers: [number: "654321"])
            let auth = server.makeAuth()
            let user = try await auth.createUser(withEmail: uniqueEmail(), password: "correct horse").user
            let provider = PhoneAuthProvider.provider(auth: auth)
            let verificationID = try await provider.verifyPhoneNumber(number, uiDelegate: nil)
            try await user.updatePhoneNumber(provider.credential(withVerificationID: verificationID, verificationCode: "654321"))
            #expect(user.phoneNumber == number)
            #expect(Set(user.providerData.map(\.providerID)) == ["password", "phone"])
            #expect(try await user.getIDTokenResult().claims["phone_number"] as? String == number)
            #expect(auth.currentUser === user)

            try await user.unlink(fromProvider: "phone")
            #expect(user.phoneNumber == nil)
            #expect(user.providerData.map(\.providerID) == ["password"])
        }
    }

    @Test("refreshToken is the stored one and tenantID is nil")
    func refreshTokenAndTenant() async throws {
        try await withFlint { server in
            let auth = server.makeAuth()
            let user = try await auth.createUser(withEmail: uniqueEmail(), password: "correct horse").user
            let stored = try #require(auth.store.load())
            #expect(user.refreshToken == stored.tokens.refreshToken)
            #expect(user.tenantID == nil)
            _ = try await user.getIDToken(forcingRefresh: true)
            #expect(user.refreshToken == (await user.tokenService.tokens.refreshToken))
        }
    }
}
