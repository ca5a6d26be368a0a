import FlintAuthTestSupport
import FlintTesting
import Foundation
import Testing

@testable import FlintAuth

@Suite("Email link against flint serve")
struct EmailLinkFlowTests {
    static func settings() -> ActionCodeSettings {
        let settings = ActionCodeSettings()
        settings.url = URL(string: "http://localhost/finishSignIn")
        settings.handleCodeInApp = true
        settings.setIOSBundleID("com.example.ios")
        settings.setAndroidPackageName("com.example.android", installIfNotAvailable: false, minimumVersion: "12")
        return settings
    }

    @Test("a sign-in link signs a new user in once; its second use is invalidActionCode")
    func signInWithLink() async throws {
        try await withFlint { server in
            let auth = server.makeAuth()
            auth.languageCode = "fr"
            let email = uniqueEmail()
            try await auth.sendSignInLink(toEmail: email, actionCodeSettings: Self.settings())
            let link = try await server.oobLink(for: email)
            #expect(auth.isSignIn(withEmailLink: link))
            #expect(link.contains("lang=fr"))  // languageCode travels as X-Firebase-Locale

            let result = try await auth.signIn(withEmail: email, link: link)
            #expect(result.additionalUserInfo?.isNewUser == true)
            let user = try #require(auth.currentUser)
            #expect(user.email == email)
            #expect(user.isEmailVerified)
            #expect(try await user.getIDTokenResult().signInProvider == "password")
            #expect(try await auth.fetchSignInMethods(forEmail: email) == [EmailLinkAuthSignInMethod])

            await expectAuthError(.invalidActionCode, "a link worked twice") { try await auth.signIn(withEmail: email, link: link) }
        }
    }

    @Test("an anonymous user links a password, then re-authenticates with it; another account's is userMismatch")
    func linkPasswordAndReauthenticate() async throws {
        try await withFlint { server in
            let auth = server.makeAuth()
            let anonymous = try await auth.signInAnonymously()
            let user = anonymous.user
            #expect(user.isAnonymous)
            let email = uniqueEmail()
            let linked = try await user.link(with: EmailAuthProvider.credential(withEmail: email, password: "correct horse"))
            #expect(linked.user === user)
            #expect(linked.additionalUserInfo == nil)
            #expect(user.email == email)
            #expect(user.providerData.map(\.providerID) == ["password"])
            #expect(auth.currentUser === user)

            let again = try await user.reauthenticate(with: EmailAuthProvider.credential(withEmail: email, password: "correct horse"))
            #expect(again.user.uid == user.uid)
            await expectAuthError(.providerAlreadyLinked, "linked a second email") {
                try await user.link(with: EmailAuthProvider.credential(withEmail: uniqueEmail(), password: "x y z w v"))
            }

            let other = server.makeAuth()
            let otherEmail = uniqueEmail()
            try await other.createUser(withEmail: otherEmail, password: "other horse")
            await expectAuthError(.userMismatch, "re-authenticated as another user") {
                try await user.reauthenticate(with: EmailAuthProvider.credential(withEmail: otherEmail, password: "other horse"))
            }
        }
    }

    @Test("an anonymous user links an email link credential")
    func linkEmailLink() async throws {
        try await withFlint { server in
            let auth = server.makeAuth()
            let user = try await auth.signInAnonymously().user
            let email = uniqueEmail()
            try await auth.sendSignInLink(toEmail: email, actionCodeSettings: Self.settings())
            let link = try await server.oobLink(for: email)
            try await user.link(with: EmailAuthProvider.credential(withEmail: email, link: link))
            #expect(user.email == email)
            #expect(auth.currentUser?.uid == user.uid)
            #expect(try await auth.fetchSignInMethods(forEmail: email) == [EmailLinkAuthSignInMethod])
        }
    }

    @Test("an email-link user re-authenticates with a new link")
    func reauthenticateWithLink() async throws {
        try await withFlint { server in
            let auth = server.makeAuth()
            let email = uniqueEmail()
            try await auth.sendSignInLink(toEmail: email, actionCodeSettings: Self.settings())
            let user = try await auth.signIn(withEmail: email, link: try await server.oobLink(for: email)).user
            try await auth.sendSignInLink(toEmail: email, actionCodeSettings: Self.settings())
            let result = try await user.reauthenticate(
                with: EmailAuthProvider.credential(withEmail: email, link: try await server.oobLink(for: email)))
            #expect(result.user.uid == user.uid)
            #expect(result.additionalUserInfo?.isNewUser == false)
        }
    }
}
