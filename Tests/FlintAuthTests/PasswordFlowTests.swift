import FlintAuthTestSupport
import FlintTesting
import Foundation
import Testing

@testable import FlintAuth

@Suite("Email and password against flint serve")
struct PasswordFlowTests {
    @Test("createUser signs in, tells the listener and yields a token with the user's claims")
    func createUserSignsIn() async throws {
        try await withFlint { server in
            let auth = server.makeAuth()
            let log = ListenerLog()
            let handle = auth.addStateDidChangeListener { _, user in log.record(user) }
            #expect(try await log.waitFor(1) == [nil])

            let email = uniqueEmail()
            let result = try await auth.createUser(withEmail: email, password: "correct horse")
            #expect(result.additionalUserInfo?.isNewUser == true)
            #expect(result.additionalUserInfo?.providerID == "password")
            let user = try #require(auth.currentUser)
            #expect(user === result.user)
            #expect(user.email == email)
            #expect(user.isEmailVerified == false)
            #expect(user.providerData.map(\.providerID) == ["password"])
            #expect(user.metadata.creationDate != nil)
            #expect(try await log.waitFor(2) == [nil, user.uid])

            let token = try await user.getIDTokenResult()
            #expect(token.claims["user_id"] as? String == user.uid)
            #expect(token.claims["email"] as? String == email)
            #expect(token.claims["aud"] as? String == "demo-flint")
            #expect(token.signInProvider == "password")
            #expect(token.expirationDate.timeIntervalSinceNow > 3000)
            #expect(try await user.getIDToken() == token.token)

            try auth.signOut()
            #expect(auth.currentUser == nil)
            #expect(try await log.waitFor(3) == [nil, user.uid, nil])
            auth.removeStateDidChangeListener(handle)
        }
    }

    @Test("a wrong password is invalidCredential (17004), as INVALID_LOGIN_CREDENTIALS maps")
    func wrongPassword() async throws {
        try await withFlint { server in
            let auth = server.makeAuth()
            let email = uniqueEmail()
            try await auth.createUser(withEmail: email, password: "correct horse")
            try auth.signOut()
            do {
                try await auth.signIn(withEmail: email, password: "wrong horse")
                Issue.record("signed in with a wrong password")
            } catch {
                #expect(authCode(error) == AuthErrorCode.invalidCredential.rawValue)
                #expect((error as NSError).userInfo[AuthErrors.userInfoNameKey] as? String == "ERROR_INVALID_CREDENTIAL")
                #expect(!error.localizedDescription.isEmpty)
            }
            #expect(auth.currentUser == nil)
            let result = try await auth.signIn(withEmail: email, password: "correct horse")
            #expect(result.additionalUserInfo?.isNewUser == false)
            #expect(auth.currentUser?.email == email)
        }
    }

    @Test("an email in use and a weak password map to emailAlreadyInUse and weakPassword")
    func signUpErrors() async throws {
        try await withFlint { server in
            let auth = server.makeAuth()
            let email = uniqueEmail()
            try await auth.createUser(withEmail: email, password: "correct horse")
            await expectAuthError(.emailAlreadyInUse, "an email was used twice") {
                try await auth.createUser(withEmail: email, password: "another one")
            }
            do {
                try await auth.createUser(withEmail: uniqueEmail(), password: "123")
                Issue.record("a weak password was accepted")
            } catch {
                #expect(authCode(error) == AuthErrorCode.weakPassword.rawValue)
                #expect((error as NSError).userInfo[NSLocalizedFailureReasonErrorKey] != nil)
            }
        }
    }

    @Test("fetchSignInMethods lists password, then emailLink once a link was used")
    func signInMethods() async throws {
        try await withFlint { server in
            let auth = server.makeAuth()
            let email = uniqueEmail()
            #expect(try await auth.fetchSignInMethods(forEmail: email) == [])
            try await auth.createUser(withEmail: email, password: "correct horse")
            #expect(try await auth.fetchSignInMethods(forEmail: email) == [EmailPasswordAuthSignInMethod])
        }
    }

    @Test("a forced refresh goes to securetoken, gives a new token, and concurrent calls share it")
    func forcedRefresh() async throws {
        try await withFlint { server in
            let auth = server.makeAuth()
            let tokens = ListenerLog()
            try await auth.createUser(withEmail: uniqueEmail(), password: "correct horse")
            let user = try #require(auth.currentUser)
            auth.addIDTokenDidChangeListener { _, user in tokens.record(user) }
            _ = try await tokens.waitFor(1)
            _ = try await user.getIDToken()
            let refreshesBefore = await user.tokenService.refreshCount
            async let a = user.getIDToken(forcingRefresh: true)
            async let b = user.getIDToken(forcingRefresh: true)
            async let c = user.getIDToken(forcingRefresh: true)
            let (refreshedA, refreshedB, refreshedC) = try await (a, b, c)
            #expect(refreshedA == refreshedB && refreshedB == refreshedC)
            let refreshes = await user.tokenService.refreshCount - refreshesBefore
            #expect(refreshes >= 1 && refreshes <= 2, "forced refreshes at once share the calls in flight")
            #expect(try await user.getIDToken() == refreshedA)
            #expect(try await tokens.waitFor(2).last == user.uid)
            let claims = try await user.getIDTokenResult()
            #expect(claims.signInProvider == "password")
        }
    }

    @Test("a token with five minutes or less left is refreshed by getIDToken; one with more is not")
    func refreshNearExpiry() async throws {
        try await withFlint { server in
            let auth = server.makeAuth()
            let user = try await auth.createUser(withEmail: uniqueEmail(), password: "correct horse").user
            let fresh = try await user.getIDToken()
            #expect(await user.tokenService.refreshCount == 0)
            let tokens = await user.tokenService.tokens
            await user.tokenService.replace(
                with: .init(accessToken: fresh, refreshToken: tokens.refreshToken, expirationDate: Date(timeIntervalSinceNow: 299)))
            let refreshed = try await user.getIDToken()
            #expect(await user.tokenService.refreshCount == 1, "the near-expiry token was refreshed")
            #expect(try await user.getIDToken() == refreshed)
            #expect(await user.tokenService.refreshCount == 1)
        }
    }

    @Test("the completion-handler forms deliver results and FIRAuthErrorDomain errors")
    func completionHandlers() async throws {
        try await withFlint { server in
            let auth = server.makeAuth()
            let email = uniqueEmail()
            let created: AuthDataResult? = try await withCheckedThrowingContinuation { continuation in
                auth.createUser(withEmail: email, password: "correct horse") { result, error in
                    if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: result) }
                }
            }
            #expect(created?.user.email == email)
            let failure: (any Error)? = await withCheckedContinuation { continuation in
                auth.signIn(withEmail: email, password: "wrong horse") { _, error in continuation.resume(returning: error) }
            }
            #expect(failure.flatMap(authCode) == AuthErrorCode.invalidCredential.rawValue)
            let token: String? = await withCheckedContinuation { continuation in
                auth.currentUser?.getIDToken { token, _ in continuation.resume(returning: token) }
            }
            #expect(token?.isEmpty == false)
        }
    }

    @Test("sendPasswordReset emails a reset link that is not a sign-in link")
    func passwordReset() async throws {
        try await withFlint { server in
            let auth = server.makeAuth()
            let email = uniqueEmail()
            try await auth.createUser(withEmail: email, password: "correct horse")
            try await auth.sendPasswordReset(withEmail: email)
            let link = try await server.oobLink(for: email)
            #expect(link.contains("mode=resetPassword"))
            #expect(!auth.isSignIn(withEmailLink: link))
        }
    }

    @Test("a refresh for an account deleted on the server ends the session: userNotFound, signed out, listener told")
    func sessionOver() async throws {
        try await withFlint { server in
            let auth = server.makeAuth()
            let user = try await auth.createUser(withEmail: uniqueEmail(), password: "correct horse").user
            let log = ListenerLog()
            auth.addStateDidChangeListener { _, user in log.record(user) }
            _ = try await log.waitFor(1)
            let (status, _) = try await server.send("DELETE", "/emulator/v1/projects/demo-flint/accounts")
            #expect(status == 200)
            await expectAuthError(.userNotFound, "refreshed the token of a deleted account") { try await user.getIDToken(forcingRefresh: true) }
            #expect(auth.currentUser == nil)
            #expect(try await log.waitFor(2) == [user.uid, nil])
        }
    }

    @Test("delete removes the account and signs out")
    func deleteAccount() async throws {
        try await withFlint { server in
            let auth = server.makeAuth()
            let email = uniqueEmail()
            try await auth.createUser(withEmail: email, password: "correct horse")
            try await #require(auth.currentUser).delete()
            #expect(auth.currentUser == nil)
            await expectAuthError(.invalidCredential, "a deleted account signed in") {
                try await auth.signIn(withEmail: email, password: "correct horse")
            }
        }
    }
}
