import FlintCore
import FlintServer
import FlintServerTestSupport
import FlintStore
import FlintTesting
import Foundation
import HTTPTypes
import Testing

@Suite("Email and password")
struct PasswordTests {
    @Test("sign-up makes an unverified password account and signs it in")
    func signUp() async throws {
        try await withFlint { api in
            let user = try await api.signUp("New@Example.com", "s3cret!", extra: ["displayName": "Ada"])
            #expect(user.reply.string("kind") == "identitytoolkit#SignupNewUserResponse")
            #expect(user.reply.string("email") == "new@example.com")
            #expect(user.reply.string("displayName") == "Ada")
            let claims = try JWT.payload(user.idToken)
            #expect(claims["email_verified"] == .bool(false))
            #expect(claims["name"]?.stringValue == "Ada")
            #expect(claims["firebase"]?["sign_in_provider"]?.stringValue == "password")
            let account = try #require(try await api.lookup(user.idToken)["users"]?.arrayValue?.first)
            #expect(account["passwordHash"]?.stringValue == "UkVEQUNURUQ=")
            #expect(account["emailVerified"] == .bool(false))

            let duplicate = try await api.post(Path.signUp, ["email": "NEW@example.com", "password": "another1"])
            #expect(duplicate.errorMessage == "EMAIL_EXISTS")
            let v3 = try await api.post("\(Path.v3)/signupNewUser", ["email": "v3@example.com", "password": "abcdef", "returnSecureToken": "true"])
            #expect(v3.status == .ok)
        }
    }

    static let signUpErrors: [ErrorCase] = [
        ErrorCase("a short password", body: fieldsJSON(["email": "a@example.com", "password": "12345"]), code: "WEAK_PASSWORD"),
        ErrorCase("no password", body: fieldsJSON(["email": "a@example.com"]), code: "MISSING_PASSWORD"),
        ErrorCase("no email", body: fieldsJSON(["password": "123456"]), code: "MISSING_EMAIL"),
        ErrorCase("a malformed email", body: fieldsJSON(["email": "a@", "password": "123456"]), code: "INVALID_EMAIL"),
        ErrorCase(
            "a user ID from a client", body: fieldsJSON(["email": "a@example.com", "password": "123456", "localId": "x"]),
            code: "UNEXPECTED_PARAMETER"),
        ErrorCase("an anonymous sign-up while anonymous accounts are off", body: "{}", code: "ADMIN_ONLY_OPERATION"),
    ]

    @Test("sign-up refuses bad input", arguments: signUpErrors)
    func signUpRefusals(_ error: ErrorCase) async throws {
        try await withFlint { api in
            let reply = try await api.postRaw(Path.signUp, error.body)
            #expect(reply.status.code == error.status)
            #expect(reply.errorCode == error.code, "\(reply.text)")
        }
        #expect(AuthError.weakPassword.message == "WEAK_PASSWORD : Password should be at least 6 characters")
    }

    @Test("password sign-in: right password signs in; wrong password and unknown email get one answer")
    func signIn() async throws {
        try await withFlint { api in
            let user = try await api.signUp("pw@example.com", "right-password")
            let good = try await api.signInWithPassword("PW@example.com", "right-password")
            #expect(good.status == .ok)
            #expect(good.string("localId") == user.localId)
            #expect(good["registered"] == .bool(true))
            #expect(good.string("kind") == "identitytoolkit#VerifyPasswordResponse")
            #expect(try await api.post("\(Path.v3)/verifyPassword", ["email": "pw@example.com", "password": "right-password"]).status == .ok)
            #expect(try await api.signInWithPassword("pw@example.com", "wrong-password").errorMessage == "INVALID_LOGIN_CREDENTIALS")
            #expect(try await api.signInWithPassword("nobody@example.com", "whatever").errorMessage == "INVALID_LOGIN_CREDENTIALS")
            #expect(try await api.post(Path.passwordSignIn, ["email": "pw@example.com"]).errorMessage == "MISSING_PASSWORD")
            #expect(try await api.post(Path.passwordSignIn, ["password": "x"]).errorMessage == "MISSING_EMAIL")
            // A phone-only or email-link-only account has no password: same answer.
            _ = try await api.signInWithEmailLink("linkonly@example.com")
            #expect(try await api.signInWithPassword("linkonly@example.com", "anything").errorMessage == "INVALID_LOGIN_CREDENTIALS")
        }
    }

    @Test("a hash made at another cost is replaced at the next sign-in, and still verifies")
    func rehashOnCostChange() async throws {
        let path = temporaryDatabasePath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let userID = try await TestNode.make(path: path).run { api in try await api.signUp("cost@example.com", "password1").localId }
        let node = try await TestNode.make(path: path) { $0.passwordHashParameters = PasswordHashParameters(logN: 11) }
        let store = node.store
        try await node.run { api in
            #expect(
                PasswordHash.parameters(
                    of: try #require(try await store.read { try await $0.user(tenant: .default, localID: userID) }?.passwordHash))?.logN == 10)
            #expect(try await api.signInWithPassword("cost@example.com", "password1").status == .ok)
            let rehashed = try #require(try await store.read { try await $0.user(tenant: .default, localID: userID) }?.passwordHash)
            #expect(PasswordHash.parameters(of: rehashed)?.logN == 11)
            #expect(try await api.signInWithPassword("cost@example.com", "password1").status == .ok)
            #expect(try await api.signInWithPassword("cost@example.com", "password2").errorMessage == "INVALID_LOGIN_CREDENTIALS")
        }
    }

    @Test("a disabled account cannot sign in with its password")
    func disabledUser() async throws {
        try await withFlint { api in
            let user = try await api.signUp("off@example.com", "password1")
            let body = #"{"localId":"\#(user.localId)","disableUser":true}"#
            #expect(try await api.admin(.post, "\(Path.v1)/projects/\(project)/accounts:update", body: body).status == .ok)
            #expect(try await api.signInWithPassword("off@example.com", "password1").errorMessage == "USER_DISABLED")
        }
    }

    @Test("repeated failures for one email are throttled, then the window passes")
    func perAccountThrottle() async throws {
        try await withFlint(configure: { $0.passwordFailuresPerAccount = 3 }) { api in
            _ = try await api.signUp("target@example.com", "the-password")
            for _ in 0..<3 { _ = try await api.signInWithPassword("target@example.com", "guess") }
            #expect(try await api.signInWithPassword("target@example.com", "the-password").errorMessage == "TOO_MANY_ATTEMPTS_TRY_LATER")
            #expect(try await api.signInWithPassword("nobody@example.com", "x").errorMessage == "INVALID_LOGIN_CREDENTIALS")
            api.clock.advance(by: .seconds(900))
            #expect(try await api.signInWithPassword("target@example.com", "the-password").status == .ok)
        }
    }

    @Test("repeated failures from one IP are throttled across emails")
    func perIPThrottle() async throws {
        try await withFlint(configure: {
            $0.passwordFailuresPerIP = 4
            $0.trustForwardedFor = true
        }) { api in
            _ = try await api.signUp("ip@example.com", "the-password")
            let attacker: HTTPFields = [HTTPField.Name("X-Forwarded-For")!: "10.9.9.9, 203.0.113.9"]
            for i in 0..<4 { _ = try await api.signInWithPassword("user\(i)@example.com", "guess", headers: attacker) }
            #expect(
                try await api.signInWithPassword("ip@example.com", "the-password", headers: attacker).errorMessage == "TOO_MANY_ATTEMPTS_TRY_LATER")
            let other: HTTPFields = [HTTPField.Name("X-Forwarded-For")!: "198.51.100.7"]
            #expect(try await api.signInWithPassword("ip@example.com", "the-password", headers: other).status == .ok)
        }
    }

    @Test("password reset: the code is looked at without use, then sets the password and revokes sessions")
    func reset() async throws {
        try await withFlint { api in
            let user = try await api.signUp("reset@example.com", "old-password")
            let sent = try await api.post(Path.sendOob, ["requestType": "PASSWORD_RESET", "email": "Reset@Example.com"])
            #expect(sent.status == .ok, "\(sent.text)")
            let (code, link) = try await api.oobCode(for: "reset@example.com")
            #expect(queryItems(of: link)["mode"] == "resetPassword")

            let peek = try await api.post(Path.resetPassword, ["oobCode": code])
            #expect(peek.string("requestType") == "PASSWORD_RESET")
            #expect(peek.string("email") == "reset@example.com")
            #expect(try await api.post(Path.resetPassword, ["oobCode": code, "newPassword": "short"]).errorCode == "WEAK_PASSWORD")

            api.clock.advance(by: .seconds(2))
            let done = try await api.post(Path.resetPassword, ["oobCode": code, "newPassword": "new-password"])
            #expect(done.status == .ok, "\(done.text)")
            #expect(done.string("email") == "reset@example.com")
            #expect(try await api.refresh(user.refreshToken).errorMessage == "TOKEN_EXPIRED")
            #expect(try await api.signInWithPassword("reset@example.com", "old-password").errorMessage == "INVALID_LOGIN_CREDENTIALS")
            #expect(try await api.signInWithPassword("reset@example.com", "new-password").status == .ok)
            #expect(try await api.post(Path.resetPassword, ["oobCode": code, "newPassword": "again-password"]).errorMessage == "INVALID_OOB_CODE")
            #expect(try await api.post(Path.resetPassword, [:]).errorMessage == "MISSING_OOB_CODE")
        }
    }

    @Test("with email-enumeration protection, a reset for an unknown email looks sent and createAuthUri reveals nothing")
    func enumerationProtection() async throws {
        try await withFlint { api in
            _ = try await api.signUp("known@example.com", "password1")
            try await api.patchConfig(
                #"{"emailPrivacyConfig":{"enableImprovedEmailPrivacy":true}}"#, mask: "emailPrivacyConfig.enableImprovedEmailPrivacy")
            #expect(try await api.post(Path.sendOob, ["requestType": "PASSWORD_RESET", "email": "nobody@example.com"]).status == .ok)
            #expect(try await api.oobCodes().isEmpty)
            let uri = try await api.post(Path.createAuthURI, ["identifier": "known@example.com", "continueUri": "http://localhost/"])
            #expect(uri.status == .ok)
            #expect(uri["registered"] == nil)
            #expect(uri["signinMethods"] == nil)
            #expect(uri.string("sessionId") != nil)
        }
    }

    @Test("email verification by link: VERIFY_EMAIL with the user's token, applied through accounts:update")
    func verifyEmail() async throws {
        try await withFlint { api in
            let user = try await api.signUp("verify@example.com", "password1")
            let sent = try await api.post(Path.sendOob, ["requestType": "VERIFY_EMAIL", "idToken": user.idToken])
            #expect(sent.string("email") == "verify@example.com")
            let code = try await api.oobCode(for: "verify@example.com").code
            let applied = try await api.post(Path.update, ["oobCode": code])
            #expect(applied.status == .ok, "\(applied.text)")
            #expect(applied["emailVerified"] == .bool(true))
            #expect(try await api.post(Path.update, ["oobCode": code]).errorMessage == "INVALID_OOB_CODE")
            let refreshed = try await api.refresh(user.refreshToken)
            let claims = try JWT.payload(try #require(refreshed.string("id_token")))
            #expect(claims["email_verified"] == .bool(true))
        }
    }

    @Test("accounts:update changes password, email and profile; credential changes return fresh tokens and revoke old ones")
    func update() async throws {
        try await withFlint { api in
            let user = try await api.signUp("me@example.com", "password1")
            api.clock.advance(by: .seconds(2))
            let profile = try await api.post(Path.update, ["idToken": user.idToken, "displayName": "Me", "photoUrl": "https://localhost/me.png"])
            #expect(profile.string("displayName") == "Me")
            #expect(profile["idToken"] == nil)
            let changed = try await api.post(Path.update, ["idToken": user.idToken, "password": "password2"])
            let fresh = try #require(changed.string("refreshToken"))
            #expect(changed.string("idToken") != nil)
            #expect(try await api.refresh(user.refreshToken).errorMessage == "TOKEN_EXPIRED")
            #expect(try await api.refresh(fresh).status == .ok)
            #expect(try await api.signInWithPassword("me@example.com", "password2").status == .ok)
            // Re-issued tokens keep the original sign-in time; an old sign-in cannot change credentials.
            #expect(try JWT.payload(try #require(changed.string("idToken")))["auth_time"] == JWT.payload(user.idToken)["auth_time"])
            api.clock.advance(by: .seconds(301))
            let tooOld = try await api.post(Path.update, ["idToken": try #require(changed.string("idToken")), "password": "password3"])
            #expect(tooOld.errorCode == "CREDENTIAL_TOO_OLD_LOGIN_AGAIN")

            let other = try await api.signUp("other@example.com", "password1")
            let taken = try await api.post(Path.update, ["idToken": other.idToken, "email": "ME@example.com"])
            #expect(taken.errorMessage == "EMAIL_EXISTS")
            let moved = try await api.post(Path.update, ["idToken": other.idToken, "email": "moved@example.com"])
            #expect(moved.string("email") == "moved@example.com")
            #expect(moved["emailVerified"] == .bool(false))
            #expect(try await api.post(Path.update, ["displayName": "x"]).errorMessage == "INVALID_REQ_TYPE : Unsupported request parameters.")
            #expect(try await api.post(Path.update, ["idToken": other.idToken, "emailVerified": "true"]).errorMessage == "INSUFFICIENT_PERMISSION")
        }
    }

    @Test("signUp with a phone user's token adds email and password to that user")
    func linkPassword() async throws {
        try await withFlint { api in
            let phone = try await api.signIn("+14155550199")
            let linked = try await api.signUp("linked@example.com", "password1", extra: ["idToken": phone.idToken])
            #expect(linked.localId == phone.localId)
            let account = try #require(try await api.lookup(linked.idToken)["users"]?.arrayValue?.first)
            let providers = account["providerUserInfo"]?.arrayValue?.compactMap { $0["providerId"]?.stringValue } ?? []
            #expect(Set(providers) == ["password", "phone"])
            #expect(try await api.signInWithPassword("linked@example.com", "password1").string("localId") == phone.localId)
        }
    }

    @Test("createAuthUri lists sign-in methods and checks its input")
    func createAuthURI() async throws {
        try await withFlint { api in
            _ = try await api.signUp("methods@example.com", "password1")
            let known = try await api.post(Path.createAuthURI, ["identifier": "Methods@example.com", "continueUri": "http://localhost/"])
            #expect(known["registered"] == .bool(true))
            #expect(known["signinMethods"] == .array(["password"]))
            #expect(known["allProviders"] == .array(["password"]))
            let unknown = try await api.post("\(Path.v3)/createAuthUri", ["identifier": "none@example.com", "continueUri": "http://localhost/"])
            #expect(unknown["registered"] == .bool(false))
            #expect(unknown["signinMethods"] == .array([]))
            #expect(try await api.post(Path.createAuthURI, ["continueUri": "http://localhost/"]).errorMessage == "MISSING_IDENTIFIER")
            #expect(
                try await api.post(Path.createAuthURI, ["identifier": "nope", "continueUri": "http://localhost/"]).errorMessage
                    == "INVALID_IDENTIFIER")
        }
    }

    @Test("anonymous accounts when the project allows them")
    func anonymous() async throws {
        try await withFlint { api in
            try await api.patchConfig(#"{"signIn":{"anonymous":{"enabled":true}}}"#, mask: "signIn.anonymous.enabled")
            let user = try API.signedIn(try await api.postRaw(Path.signUp, "{}"))
            #expect(try JWT.payload(user.idToken)["firebase"]?["sign_in_provider"]?.stringValue == "anonymous")
        }
    }

    @Test("an operator creates a user with a password; no tokens are returned")
    func adminCreate() async throws {
        try await withFlint { api in
            let body = #"{"email":"made@example.com","password":"password1","emailVerified":true,"displayName":"Made"}"#
            let reply = try await api.admin(.post, "\(Path.v1)/projects/\(project)/accounts", body: body)
            #expect(reply.status == .ok, "\(reply.text)")
            #expect(reply["idToken"] == nil)
            let signedIn = try await api.signInWithPassword("made@example.com", "password1")
            #expect(try JWT.payload(try #require(signedIn.string("idToken")))["email_verified"] == .bool(true))
            let byEmail = try await api.admin(.post, "\(Path.v1)/projects/\(project)/accounts:lookup", body: #"{"email":["Made@Example.com"]}"#)
            #expect(byEmail["users"]?.arrayValue?.first?["displayName"]?.stringValue == "Made")
            let taken = try await api.admin(.post, "\(Path.v1)/projects/\(project)/accounts", body: #"{"email":"made@example.com"}"#)
            #expect(taken.errorMessage == "EMAIL_EXISTS")
        }
    }
}
