import FlintCore
import FlintServer
import FlintServerTestSupport
import FlintTesting
import Foundation
import HTTPTypes
import Testing

@Suite("Email link sign-in")
struct EmailLinkTests {
    @Test("a link is sent, listed like the emulator's, and signs a new user in once")
    func sendAndSignIn() async throws {
        try await withFlint { api in
            let sent = try await api.sendSignInLink("Ada@Example.com")
            #expect(sent.status == .ok)
            #expect(sent.string("kind") == "identitytoolkit#GetOobConfirmationCodeResponse")
            #expect(sent.string("email") == "ada@example.com")
            #expect(sent["oobCode"] == nil)

            let (code, link) = try await api.oobCode(for: "ada@example.com")
            #expect(link.hasPrefix("http://127.0.0.1:0/__/auth/action?"))
            let query = queryItems(of: link)
            #expect(query["mode"] == "signIn")
            #expect(query["oobCode"] == code)
            #expect(query["apiKey"] == "test")
            #expect(query["continueUrl"] == "https://localhost/finish")
            #expect(query["lang"] == "en")
            let listed = try #require(try await api.oobCodes().first)
            #expect(listed["requestType"]?.stringValue == "EMAIL_SIGNIN")

            let reply = try await api.post(Path.emailLinkSignIn, ["email": "ADA@example.com", "oobCode": code])
            let user = try API.signedIn(reply)
            #expect(reply.string("kind") == "identitytoolkit#EmailLinkSigninResponse")
            #expect(reply["isNewUser"] == .bool(true))
            #expect(reply.string("email") == "ada@example.com")
            #expect(reply.string("expiresIn") == "3600")
            let claims = try JWT.payload(user.idToken)
            #expect(claims["email"]?.stringValue == "ada@example.com")
            #expect(claims["email_verified"] == .bool(true))
            #expect(claims["firebase"]?["sign_in_provider"]?.stringValue == "password")
            #expect(claims["firebase"]?["identities"]?["email"] == .array(["ada@example.com"]))

            let again = try await api.post(Path.emailLinkSignIn, ["email": "ada@example.com", "oobCode": code])
            #expect(again.errorMessage == "INVALID_OOB_CODE")
            #expect(try await api.oobCodes().isEmpty)

            // A second link signs the same user in: not new.
            let second = try await api.signInWithEmailLink("ada@example.com")
            #expect(second.localId == user.localId)
            #expect(second.reply["isNewUser"] == .bool(false))
            let account = try await api.lookup(second.idToken)
            let info = try #require(account["users"]?.arrayValue?.first)
            #expect(info["emailVerified"] == .bool(true))
            #expect(info["emailLinkSignin"] == .bool(true))
            #expect(info["providerUserInfo"]?.arrayValue?.first?["providerId"]?.stringValue == "password")
        }
    }

    @Test("the iOS SDK's v3 paths work the same")
    func legacyPaths() async throws {
        try await withFlint { api in
            let fields = [
                "requestType": "EMAIL_SIGNIN", "email": "v3@example.com", "continueUrl": "https://localhost/x", "canHandleCodeInApp": "true",
                "iOSBundleId": "com.example.app", "clientType": "CLIENT_TYPE_IOS",
            ]
            #expect(try await api.post("\(Path.v3)/getOobConfirmationCode", fields).status == .ok)
            let code = try await api.oobCode(for: "v3@example.com").code
            let reply = try await api.post("\(Path.v3)/emailLinkSignin", ["email": "v3@example.com", "oobCode": code])
            #expect(reply.status == .ok)
            #expect(reply.string("idToken") != nil)
        }
    }

    static let sendErrors: [ErrorCase] = [
        ErrorCase("no request type", body: fieldsJSON(["email": "a@example.com"]), code: "MISSING_REQ_TYPE"),
        ErrorCase(
            "no email", body: fieldsJSON(["requestType": "EMAIL_SIGNIN", "continueUrl": "https://localhost/", "canHandleCodeInApp": "true"]),
            code: "MISSING_EMAIL"),
        ErrorCase(
            "a malformed email",
            body: fieldsJSON([
                "requestType": "EMAIL_SIGNIN", "email": "not-an-email", "continueUrl": "https://localhost/", "canHandleCodeInApp": "true",
            ]), code: "INVALID_EMAIL"),
        ErrorCase(
            "a continue URL a browser would read as another host",
            body: fieldsJSON([
                "requestType": "EMAIL_SIGNIN", "email": "a@example.com", "continueUrl": #"https://evil.com\@localhost/"#,
                "canHandleCodeInApp": "true",
            ]), code: "INVALID_CONTINUE_URI"),
        ErrorCase(
            "no continue URL", body: fieldsJSON(["requestType": "EMAIL_SIGNIN", "email": "a@example.com", "canHandleCodeInApp": "true"]),
            code: "MISSING_CONTINUE_URI"),
        ErrorCase(
            "a relative continue URL",
            body: fieldsJSON(["requestType": "EMAIL_SIGNIN", "email": "a@example.com", "continueUrl": "/finish", "canHandleCodeInApp": "true"]),
            code: "INVALID_CONTINUE_URI"),
        ErrorCase(
            "a continue URL off the authorized domains",
            body: fieldsJSON([
                "requestType": "EMAIL_SIGNIN", "email": "a@example.com", "continueUrl": "https://evil.example/", "canHandleCodeInApp": "true",
            ]), code: "UNAUTHORIZED_DOMAIN"),
        ErrorCase(
            "a link not handled in the app",
            body: fieldsJSON(["requestType": "EMAIL_SIGNIN", "email": "a@example.com", "continueUrl": "https://localhost/"]), code: "INVALID_ARGUMENT"
        ),
        ErrorCase(
            "returnOobLink from a client",
            body: fieldsJSON([
                "requestType": "EMAIL_SIGNIN", "email": "a@example.com", "continueUrl": "https://localhost/", "canHandleCodeInApp": "true",
                "returnOobLink": "true",
            ]), status: 403, code: "INSUFFICIENT_PERMISSION"),
        ErrorCase(
            "an unknown link domain",
            body: fieldsJSON([
                "requestType": "EMAIL_SIGNIN", "email": "a@example.com", "continueUrl": "https://localhost/", "canHandleCodeInApp": "true",
                "linkDomain": "x.example",
            ]), code: "INVALID_HOSTING_LINK_DOMAIN"),
        ErrorCase(
            "an unknown dynamic link domain",
            body: fieldsJSON([
                "requestType": "EMAIL_SIGNIN", "email": "a@example.com", "continueUrl": "https://localhost/", "canHandleCodeInApp": "true",
                "dynamicLinkDomain": "x.page.link",
            ]), code: "INVALID_DYNAMIC_LINK_DOMAIN"),
        ErrorCase(
            "installing an Android app without its package",
            body: fieldsJSON([
                "requestType": "EMAIL_SIGNIN", "email": "a@example.com", "continueUrl": "https://localhost/", "canHandleCodeInApp": "true",
                "androidInstallApp": "true",
            ]), code: "MISSING_ANDROID_PACKAGE_NAME"),
        ErrorCase("VERIFY_EMAIL without a token", body: fieldsJSON(["requestType": "VERIFY_EMAIL"]), code: "MISSING_ID_TOKEN"),
        ErrorCase(
            "a reset for an unknown email", body: fieldsJSON(["requestType": "PASSWORD_RESET", "email": "nobody@example.com"]),
            code: "EMAIL_NOT_FOUND"),
    ]

    @Test("an unknown hosting link domain is refused with Identity Platform's whole message, which the Admin SDKs show")
    func hostingLinkDomainMessage() async throws {
        try await withFlint { api in
            let reply = try await api.postRaw(
                Path.sendOob,
                fieldsJSON([
                    "requestType": "EMAIL_SIGNIN", "email": "a@example.com", "continueUrl": "https://localhost/", "canHandleCodeInApp": "true",
                    "linkDomain": "cool.link",
                ]))
            #expect(
                reply.errorMessage
                    == "INVALID_HOSTING_LINK_DOMAIN : The provided hosting link domain is not configured in Firebase Hosting or is not owned by "
                    + "the current project. This cannot be a default hosting domain (web.app or firebaseapp.com).", "\(reply.text)")
        }
    }

    @Test("sendOobCode refuses bad requests with Firebase's errors", arguments: sendErrors)
    func sendRefusals(_ error: ErrorCase) async throws {
        try await withFlint { api in
            let reply = try await api.postRaw(Path.sendOob, error.body)
            #expect(reply.status.code == error.status, "\(reply.text)")
            #expect(reply.errorCode == error.code, "\(reply.text)")
        }
    }

    @Test("a request type sendOobCode does not send is a 400 INVALID_REQ_TYPE, never a 5xx")
    func unsupportedType() async throws {
        try await withFlint { api in
            let reply = try await api.post(Path.sendOob, ["requestType": "RECOVER_EMAIL", "email": "a@example.com"])
            #expect(reply.status == .badRequest)
            #expect(reply.errorCode == "INVALID_REQ_TYPE")
        }
    }

    @Test("an operator gets the code and link back and nothing is sent")
    func returnOobLink() async throws {
        try await withFlint { api in
            let body =
                #"{"requestType":"EMAIL_SIGNIN","email":"ops@example.com","continueUrl":"https://localhost/","canHandleCodeInApp":true,"returnOobLink":true}"#
            let reply = try await api.admin(.post, "\(Path.v1)/projects/\(project)/accounts:sendOobCode", body: body)
            #expect(reply.status == .ok, "\(reply.text)")
            let code = try #require(reply.string("oobCode"))
            let link = try #require(reply.string("oobLink"))
            #expect(queryItems(of: link)["oobCode"] == code)
            #expect(try await api.outbox().isEmpty)
            let signedIn = try await api.post(Path.emailLinkSignIn, ["email": "ops@example.com", "oobCode": code])
            #expect(signedIn.status == .ok)
        }
    }

    @Test("a wrong email is refused without using the code; a wrong or missing code is refused")
    func mismatches() async throws {
        try await withFlint { api in
            _ = try await api.sendSignInLink("right@example.com")
            let code = try await api.oobCode(for: "right@example.com").code
            let wrong = try await api.post(Path.emailLinkSignIn, ["email": "other@example.com", "oobCode": code])
            #expect(wrong.errorMessage == "INVALID_EMAIL : The email provided does not match the sign-in email address.")
            #expect(try await api.post(Path.emailLinkSignIn, ["email": "right@example.com", "oobCode": "nope"]).errorMessage == "INVALID_OOB_CODE")
            #expect(try await api.post(Path.emailLinkSignIn, ["email": "right@example.com"]).errorMessage == "MISSING_OOB_CODE")
            #expect(try await api.post(Path.emailLinkSignIn, ["oobCode": code]).errorMessage == "MISSING_EMAIL")
            #expect(try await api.post(Path.emailLinkSignIn, ["email": "right@example.com", "oobCode": code]).status == .ok)
        }
    }

    @Test("a link expires after the configured lifetime")
    func expiry() async throws {
        try await withFlint(configure: { $0.oobCodeTTL = .seconds(600) }) { api in
            _ = try await api.sendSignInLink("late@example.com")
            let code = try await api.oobCode(for: "late@example.com").code
            api.clock.advance(by: .seconds(601))
            let reply = try await api.post(Path.emailLinkSignIn, ["email": "late@example.com", "oobCode": code])
            #expect(reply.errorMessage == "EXPIRED_OOB_CODE")
        }
    }

    @Test("concurrent uses of one code: exactly one signs in")
    func oneWinner() async throws {
        try await withFlint { api in
            _ = try await api.sendSignInLink("race@example.com")
            let code = try await api.oobCode(for: "race@example.com").code
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for _ in 0..<8 {
                    group.addTask { try await api.post(Path.emailLinkSignIn, ["email": "race@example.com", "oobCode": code]).status }
                }
                return try await group.reduce(into: [HTTPResponse.Status]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .ok }.count == 1)
            #expect(statuses.filter { $0 == .badRequest }.count == 7)
        }
    }

    @Test("an unverified password account is taken over: password and linked phone removed, earlier sessions revoked")
    func takeover() async throws {
        try await withFlint { api in
            let squatter = try await api.signUp("victim@example.com", "squatter-password")
            // The squatter links their own phone number, which would let them back in.
            let sessionInfo = try await api.sendCode(alice)
            let linked = try await api.verify(
                sessionInfo, code: try await api.pendingCode(for: alice), extra: ["idToken": squatter.idToken, "operation": "LINK"])
            #expect(linked.status == .ok, "\(linked.text)")
            api.clock.advance(by: .seconds(2))
            let owner = try await api.signInWithEmailLink("victim@example.com")
            #expect(owner.localId == squatter.localId)
            #expect(owner.reply["isNewUser"] == .bool(false))
            #expect(try await api.refresh(squatter.refreshToken).errorMessage == "TOKEN_EXPIRED")
            #expect(try await api.refresh(owner.refreshToken).status == .ok)
            #expect(try await api.signInWithPassword("victim@example.com", "squatter-password").errorMessage == "INVALID_LOGIN_CREDENTIALS")
            let methods = try await api.post(Path.createAuthURI, ["identifier": "victim@example.com", "continueUri": "http://localhost/"])
            #expect(methods["signinMethods"] == .array(["emailLink"]))
            let account = try await api.lookup(owner.idToken)
            let users = account["users"]?.arrayValue ?? []
            #expect(users.count == 1)
            #expect(users.first?["phoneNumber"] == nil)
            // The number is free again: signing in with it makes a new account.
            let phoneSignIn = try await api.signIn(alice)
            #expect(phoneSignIn.localId != owner.localId)
        }
    }

    @Test("a verified password account keeps its password and sessions")
    func verifiedAccountKeepsPassword() async throws {
        try await withFlint { api in
            let first = try await api.signInWithEmailLink("keep@example.com")
            let update = try await api.post(Path.update, ["idToken": first.idToken, "password": "new-password-1"])
            #expect(update.status == .ok, "\(update.text)")
            let refreshed = try #require(update.string("refreshToken"))
            api.clock.advance(by: .seconds(2))
            _ = try await api.signInWithEmailLink("keep@example.com")
            #expect(try await api.refresh(refreshed).status == .ok)
            #expect(try await api.signInWithPassword("keep@example.com", "new-password-1").status == .ok)
            let methods = try await api.post(Path.createAuthURI, ["identifier": "keep@example.com", "continueUri": "http://localhost/"])
            #expect(methods["signinMethods"] == .array(["password", "emailLink"]))
        }
    }

    @Test("a phone user links an email with a link; an email owned by another user is refused")
    func linkToPhoneUser() async throws {
        try await withFlint { api in
            let phoneUser = try await api.signIn("+14155550101")
            let linked = try await api.signInWithEmailLink("phone.user@example.com", extra: ["idToken": phoneUser.idToken])
            #expect(linked.localId == phoneUser.localId)
            let claims = try JWT.payload(linked.idToken)
            #expect(claims["phone_number"]?.stringValue == "+14155550101")
            #expect(claims["email"]?.stringValue == "phone.user@example.com")
            #expect(claims["firebase"]?["identities"]?["phone"] == .array(["+14155550101"]))
            // Re-authentication with a link: the same user, same token shape.
            let again = try await api.signInWithEmailLink("phone.user@example.com")
            #expect(again.localId == phoneUser.localId)

            let other = try await api.signIn("+14155550102")
            _ = try await api.sendSignInLink("phone.user@example.com")
            let code = try await api.oobCode(for: "phone.user@example.com").code
            let taken = try await api.post(Path.emailLinkSignIn, ["email": "phone.user@example.com", "oobCode": code, "idToken": other.idToken])
            #expect(taken.errorMessage == "EMAIL_EXISTS")
        }
    }

    @Test("links use the public URL, or a configured link domain when asked")
    func linkHosts() async throws {
        try await withFlint(configure: { $0.publicURL = "https://auth.example.com/" }) { api in
            try await api.patchConfig(#"{"flint":{"linkDomains":["links.example.com"]}}"#, mask: "flint.linkDomains")
            _ = try await api.sendSignInLink("host@example.com")
            #expect(try await api.oobCode(for: "host@example.com").link.hasPrefix("https://auth.example.com/__/auth/action?mode=signIn&"))
            _ = try await api.sendSignInLink("host@example.com", extra: ["linkDomain": "links.example.com"])
            #expect(try await api.oobCode(for: "host@example.com").link.hasPrefix("https://links.example.com/__/auth/action?"))
        }
    }

    @Test("the email is written in the client's language")
    func localized() async throws {
        try await withFlint { api in
            _ = try await api.sendSignInLink("fr@example.com", headers: [HTTPField.Name("X-Firebase-Locale")!: "fr-FR"])
            let message = try #require(try await api.outbox().last)
            #expect(message["locale"]?.stringValue == "fr")
            #expect(message["channel"]?.stringValue == "email")
            #expect(message["subject"]?.stringValue?.isEmpty == false)
            let link = try #require(message["link"]?.stringValue)
            #expect(queryItems(of: link)["lang"] == "fr")
            #expect(message["body"]?.stringValue?.contains(link) == true)
            #expect(message["html"]?.stringValue?.contains("<html") == true)
        }
    }

    @Test("one address gets at most the hourly number of links")
    func perAddressLimit() async throws {
        try await withFlint(configure: { $0.emailsPerAddressPerHour = 3 }) { api in
            for _ in 0..<3 {
                let sent = try await api.sendSignInLink("busy@example.com")
                #expect(sent.status == .ok)
            }
            let limited = try await api.sendSignInLink("busy@example.com")
            #expect(limited.errorMessage == "TOO_MANY_ATTEMPTS_TRY_LATER")
            #expect(try await api.sendSignInLink("calm@example.com").status == .ok)
            api.clock.advance(by: .seconds(3600))
            #expect(try await api.sendSignInLink("busy@example.com").status == .ok)
        }
    }

    @Test("email links can be turned off for the project")
    func disabled() async throws {
        try await withFlint { api in
            try await api.patchConfig(#"{"signIn":{"email":{"passwordRequired":true}}}"#, mask: "signIn.email.passwordRequired")
            #expect(try await api.sendSignInLink("off@example.com").errorMessage == "OPERATION_NOT_ALLOWED")
        }
    }
}
