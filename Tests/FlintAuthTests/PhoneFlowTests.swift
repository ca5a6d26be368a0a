import FlintAuthTestSupport
import FlintTesting
import Foundation
import Testing

@testable import FlintAuth

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Phone sign-in against flint serve")
struct PhoneFlowTests {
    static let testNumber = "+16505550101"
    static let realNumber = "+14155552671"

    @Test("a test number signs a new user in with its fixed code, then the same user again")
    func testNumberSignIn() async throws {
        try await withFlint { server in
            try await server.enablePhone(testNumbers: [Self.testNumber: "123456"])
            let auth = server.makeAuth()
            auth.settings?.isAppVerificationDisabledForTesting = true
            let provider = PhoneAuthProvider.provider(auth: auth)
            let verificationID = try await provider.verifyPhoneNumber(Self.testNumber, uiDelegate: nil)
            let credential = provider.credential(withVerificationID: verificationID, verificationCode: "123456")
            #expect(credential.provider == "phone")
            let result = try await auth.signIn(with: credential)
            #expect(result.additionalUserInfo?.isNewUser == true)
            #expect(result.additionalUserInfo?.providerID == "phone")
            #expect(result.user.phoneNumber == Self.testNumber)
            #expect(auth.currentUser === result.user)
            #expect(try await result.user.getIDTokenResult().signInProvider == "phone")

            let again = try await auth.signIn(
                with: provider.credential(
                    withVerificationID: try await provider.verifyPhoneNumber(Self.testNumber, uiDelegate: nil),
                    verificationCode: "123456"))
            #expect(again.additionalUserInfo?.isNewUser == false)
            #expect(again.user.uid == result.user.uid)
        }
    }

    @Test("a real number signs in with the texted code; a wrong code is invalidVerificationCode")
    func realNumberSignIn() async throws {
        try await withFlint { server in
            try await server.enablePhone()
            let auth = server.makeAuth()
            let provider = PhoneAuthProvider.provider(auth: auth)
            let verificationID = try await provider.verifyPhoneNumber(Self.realNumber, uiDelegate: nil)
            let code = try await server.verificationCode(for: Self.realNumber)
            await expectAuthError(.invalidVerificationCode, "a wrong code signed in") {
                try await auth.signIn(with: provider.credential(withVerificationID: verificationID, verificationCode: wrong(code)))
            }
            let result = try await auth.signIn(with: provider.credential(withVerificationID: verificationID, verificationCode: code))
            #expect(result.additionalUserInfo?.isNewUser == true)
            #expect(auth.currentUser?.phoneNumber == Self.realNumber)
        }
    }

    @Test("server errors map as FirebaseAuth's", arguments: [("", AuthErrorCode.missingPhoneNumber), ("12", .invalidPhoneNumber)])
    func sendErrors(number: String, expected: AuthErrorCode) async throws {
        try await withFlint { server in
            try await server.enablePhone()
            let provider = PhoneAuthProvider.provider(auth: server.makeAuth())
            do {
                _ = try await provider.verifyPhoneNumber(number, uiDelegate: nil)
                Issue.record("\(number) was accepted")
            } catch {
                #expect(authCode(error) == expected.rawValue)
            }
        }
    }

    @Test("an unknown verification ID is invalidVerificationID")
    func unknownVerificationID() async throws {
        try await withFlint { server in
            try await server.enablePhone()
            let auth = server.makeAuth()
            let credential = PhoneAuthProvider.provider(auth: auth).credential(withVerificationID: "nonsense", verificationCode: "123456")
            await expectAuthError(.invalidVerificationID, "a made-up verification ID signed in") { try await auth.signIn(with: credential) }
        }
    }

    @Test("languageCode fr reaches the SMS in the outbox")
    func smsLocale() async throws {
        try await withFlint { server in
            try await server.enablePhone()
            let auth = server.makeAuth()
            auth.languageCode = "fr"
            _ = try await PhoneAuthProvider.provider(auth: auth).verifyPhoneNumber(Self.realNumber, uiDelegate: nil)
            let messages = try await server.outbox()
            let sms = try #require(messages.last { $0.to == Self.realNumber })
            #expect(sms.locale == "fr")
        }
    }

    @Test("an email user links a phone number, then re-authenticates with another code for it")
    func linkAndReauthenticate() async throws {
        try await withFlint { server in
            try await server.enablePhone(testNumbers: [Self.testNumber: "123456"])
            let auth = server.makeAuth()
            let user = try await auth.createUser(withEmail: uniqueEmail(), password: "correct horse").user
            let provider = PhoneAuthProvider.provider(auth: auth)

            let linkID = try await provider.verifyPhoneNumber(Self.realNumber, uiDelegate: nil)
            let linkCode = try await server.verificationCode(for: Self.realNumber)
            let linked = try await user.link(with: provider.credential(withVerificationID: linkID, verificationCode: linkCode))
            #expect(linked.user === user)
            #expect(user.phoneNumber == Self.realNumber)
            #expect(Set(user.providerData.map(\.providerID)) == ["password", "phone"])

            let reauthID = try await provider.verifyPhoneNumber(Self.realNumber, uiDelegate: nil)
            let reauthCode = try await server.verificationCode(for: Self.realNumber)
            let again = try await user.reauthenticate(with: provider.credential(withVerificationID: reauthID, verificationCode: reauthCode))
            #expect(again.user === user)
            #expect(again.additionalUserInfo?.providerID == "phone")
            #expect(auth.currentUser === user)

            // Another account's number: re-authenticating is userMismatch.
            let other = server.makeAuth()
            let otherProvider = PhoneAuthProvider.provider(auth: other)
            let otherID = try await otherProvider.verifyPhoneNumber(Self.testNumber, uiDelegate: nil)
            try await other.signIn(with: otherProvider.credential(withVerificationID: otherID, verificationCode: "123456"))
            let mismatchID = try await provider.verifyPhoneNumber(Self.testNumber, uiDelegate: nil)
            await expectAuthError(.userMismatch, "another account's number re-authenticated") {
                try await user.reauthenticate(with: provider.credential(withVerificationID: mismatchID, verificationCode: "123456"))
            }
        }
    }

    @Test("linking a number another account has is credentialAlreadyInUse with a credential for that account")
    func linkTakenNumber() async throws {
        try await withFlint { server in
            try await server.enablePhone(testNumbers: [Self.testNumber: "123456"])
            let owner = server.makeAuth()
            let ownerProvider = PhoneAuthProvider.provider(auth: owner)
            let ownerID = try await ownerProvider.verifyPhoneNumber(Self.testNumber, uiDelegate: nil)
            let ownerUID = try await owner.signIn(with: ownerProvider.credential(withVerificationID: ownerID, verificationCode: "123456")).user.uid

            let auth = server.makeAuth()
            let user = try await auth.createUser(withEmail: uniqueEmail(), password: "correct horse").user
            let provider = PhoneAuthProvider.provider(auth: auth)
            let verificationID = try await provider.verifyPhoneNumber(Self.testNumber, uiDelegate: nil)
            do {
                try await user.link(with: provider.credential(withVerificationID: verificationID, verificationCode: "123456"))
                Issue.record("a taken number was linked")
            } catch {
                #expect(authCode(error) == AuthErrorCode.credentialAlreadyInUse.rawValue)
                let updated = try #require((error as NSError).userInfo[AuthErrors.userInfoUpdatedCredentialKey] as? PhoneAuthCredential)
                let signedIn = try await auth.signIn(with: updated)
                #expect(signedIn.user.uid == ownerUID)
            }
        }
    }

    private func wrong(_ code: String) -> String { code == "000000" ? "111111" : "000000" }
}
