import FlintCore
import FlintServer
import FlintServerTestSupport
import FlintTesting
import FlintTexts
import Foundation
import HTTPTypes
import Testing

@Suite("Verify and change email")
struct ChangeEmailTests {
    /// The newest unused code whose link went to `newEmail`, from the dev helper's listing.
    static func changeCode(_ api: API, to newEmail: String) async throws -> (code: String, link: String) {
        let entry = try await api.oobCodes().last { $0["newEmail"]?.stringValue == newEmail }
        #expect(entry?["requestType"]?.stringValue == "VERIFY_AND_CHANGE_EMAIL")
        let code = try #require(entry?["oobCode"]?.stringValue, "no VERIFY_AND_CHANGE_EMAIL code for \(newEmail)")
        return (code, try #require(entry?["oobLink"]?.stringValue))
    }

    @Test("the link goes to the new address; checkActionCode tells both; accounts:update with the code changes the email")
    func changeThroughUpdate() async throws {
        try await withFlint { api in
            let user = try await api.signUp("old@example.com", "password1")
            let sent = try await api.post(
                Path.sendOob, ["requestType": "VERIFY_AND_CHANGE_EMAIL", "idToken": user.idToken, "newEmail": "New@Example.com"])
            #expect(sent.status == .ok, "\(sent.text)")
            #expect(sent.string("email") == "new@example.com")
            let (code, link) = try await Self.changeCode(api, to: "new@example.com")
            #expect(queryItems(of: link)["mode"] == "verifyAndChangeEmail")

            let checked = try await api.post(Path.resetPassword, ["oobCode": code])
            #expect(checked.string("requestType") == "VERIFY_AND_CHANGE_EMAIL")
            #expect(checked.string("email") == "old@example.com")
            #expect(checked.string("newEmail") == "new@example.com")

            api.clock.advance(by: .seconds(2))
            let applied = try await api.post(Path.update, ["oobCode": code])
            #expect(applied.status == .ok, "\(applied.text)")
            #expect(applied.string("email") == "new@example.com")
            #expect(applied["emailVerified"] == .bool(true))
            #expect(try await api.post(Path.update, ["oobCode": code]).errorMessage == "INVALID_OOB_CODE")
            // An email change ends the account's earlier sessions.
            #expect(try await api.refresh(user.refreshToken).errorMessage == "TOKEN_EXPIRED")
            #expect(try await api.signInWithPassword("new@example.com", "password1").status == .ok)
            #expect(try await api.signInWithPassword("old@example.com", "password1").errorMessage == "INVALID_LOGIN_CREDENTIALS")
        }
    }

    @Test("the action page shows a confirming form for the new address; its POST changes the email once")
    func changeThroughActionPage() async throws {
        try await withFlint { api in
            let user = try await api.signUp("page-old@example.com", "password1")
            _ = try await api.post(
                Path.sendOob, ["requestType": "VERIFY_AND_CHANGE_EMAIL", "idToken": user.idToken, "newEmail": "page-new@example.com"])
            let (code, link) = try await Self.changeCode(api, to: "page-new@example.com")
            let page = try await api.call(.get, ActionPageTests.local(link))
            #expect(page.status == .ok)
            #expect(page.text.contains("<form"))
            #expect(page.text.contains("page-new@example.com"))
            #expect(try await api.signInWithPassword("page-old@example.com", "password1").status == .ok, "a GET changes nothing")

            let form = "mode=verifyAndChangeEmail&oobCode=\(code)&apiKey=test&lang=en"
            let done = try await api.call(.post, Path.action, body: form, contentType: "application/x-www-form-urlencoded")
            #expect(done.status == .ok, "\(done.text)")
            #expect(done.text.contains("Email address changed"))
            #expect(try await api.signInWithPassword("page-new@example.com", "password1").status == .ok)
            let again = try await api.call(.post, Path.action, body: form, contentType: "application/x-www-form-urlencoded")
            #expect(again.status == .badRequest)
        }
    }

    @Test("the email sent is the change template, in the requested locale")
    func localizedEmail() async throws {
        try await withFlint { api in
            let user = try await api.signUp("fr-old@example.com", "password1")
            let sent = try await api.post(
                Path.sendOob, ["requestType": "VERIFY_AND_CHANGE_EMAIL", "idToken": user.idToken, "newEmail": "fr-new@example.com"],
                headers: [HTTPField.Name("X-Firebase-Locale")!: "fr"])
            #expect(sent.status == .ok, "\(sent.text)")
            let expected = EmailTemplates.builtIn.render(
                action: .verifyAndChangeEmail, locale: ["fr"], app: "x", link: "y", email: "fr-new@example.com")
            #expect(expected.locale == "fr")
            #expect(expected.subject.hasPrefix("Confirmez votre nouvelle adresse e-mail"))
            let (_, link) = try await Self.changeCode(api, to: "fr-new@example.com")
            #expect(queryItems(of: link)["lang"] == "fr")
        }
    }

    @Test("a taken address is refused when sending and when the code is used")
    func takenAddress() async throws {
        try await withFlint { api in
            let user = try await api.signUp("mine@example.com", "password1")
            _ = try await api.signUp("taken@example.com", "password1")
            let refused = try await api.post(
                Path.sendOob, ["requestType": "VERIFY_AND_CHANGE_EMAIL", "idToken": user.idToken, "newEmail": "taken@example.com"])
            #expect(refused.errorMessage == "EMAIL_EXISTS")

            _ = try await api.post(
                Path.sendOob, ["requestType": "VERIFY_AND_CHANGE_EMAIL", "idToken": user.idToken, "newEmail": "later@example.com"])
            let code = try await Self.changeCode(api, to: "later@example.com").code
            _ = try await api.signUp("later@example.com", "password1")
            #expect(try await api.post(Path.update, ["oobCode": code]).errorMessage == "EMAIL_EXISTS")
        }
    }

    static let refusals: [ErrorCase] = [
        ErrorCase(
            "no token", body: fieldsJSON(["requestType": "VERIFY_AND_CHANGE_EMAIL", "newEmail": "a@example.com"]), code: "MISSING_ID_TOKEN"),
        ErrorCase(
            "a bad token", body: fieldsJSON(["requestType": "VERIFY_AND_CHANGE_EMAIL", "idToken": "x", "newEmail": "a@example.com"]),
            code: "INVALID_ID_TOKEN"),
    ]

    @Test("sendOobCode refuses VERIFY_AND_CHANGE_EMAIL without a valid token", arguments: refusals)
    func refusalsWithoutToken(_ error: ErrorCase) async throws {
        try await withFlint { api in
            let reply = try await api.postRaw(Path.sendOob, error.body)
            #expect(reply.errorCode == error.code, "\(reply.text)")
        }
    }

    @Test("sendOobCode refuses a missing or malformed new address")
    func badNewEmail() async throws {
        try await withFlint { api in
            let user = try await api.signUp("me2@example.com", "password1")
            let missing = try await api.post(Path.sendOob, ["requestType": "VERIFY_AND_CHANGE_EMAIL", "idToken": user.idToken])
            #expect(missing.errorMessage == "MISSING_NEW_EMAIL")
            let malformed = try await api.post(
                Path.sendOob, ["requestType": "VERIFY_AND_CHANGE_EMAIL", "idToken": user.idToken, "newEmail": "not an email"])
            #expect(malformed.errorMessage == "INVALID_NEW_EMAIL")
        }
    }
}
