import FlintCore
import FlintServer
import FlintServerTestSupport
import FlintTesting
import FlintTexts
import Foundation
import HTTPTypes
import Testing

/// After an email change the old address gets a `RECOVER_EMAIL` link; using it puts the address back and ends every
/// session — how an owner takes a hijacked account back.
@Suite("Recover email")
struct RecoverEmailTests {
    /// The newest unused RECOVER_EMAIL code sent to `email`.
    static func recoverCode(_ api: API, to email: String) async throws -> (code: String, link: String) {
        let entry = try await api.oobCodes().last { $0["requestType"]?.stringValue == "RECOVER_EMAIL" && $0["email"]?.stringValue == email }
        let code = try #require(entry?["oobCode"]?.stringValue, "no RECOVER_EMAIL code for \(email)")
        return (code, try #require(entry?["oobLink"]?.stringValue))
    }

    @Test("a user's email change mails the old address a recoverEmail link; accounts:update with it restores the address")
    func recoverThroughUpdate() async throws {
        try await withFlint { api in
            let owner = try await api.signUp("owner@example.com", "password1")
            // The hijacker, signed in, changes the email.
            let changed = try await api.post(Path.update, ["idToken": owner.idToken, "email": "thief@example.com"])
            #expect(changed.status == .ok, "\(changed.text)")
            let hijacker = try API.signedIn(changed, localId: owner.localId)
            let (code, link) = try await Self.recoverCode(api, to: "owner@example.com")
            #expect(queryItems(of: link)["mode"] == "recoverEmail")
            let message = try await api.outbox().last { $0["to"]?.stringValue == "owner@example.com" }
            #expect(message?["body"]?.stringValue?.contains("owner@example.com") == true)

            let checked = try await api.post(Path.resetPassword, ["oobCode": code])
            #expect(checked.string("requestType") == "RECOVER_EMAIL")
            #expect(checked.string("email") == "owner@example.com")
            #expect(checked.string("newEmail") == "thief@example.com")

            api.clock.advance(by: .seconds(2))
            let restored = try await api.post(Path.update, ["oobCode": code])
            #expect(restored.status == .ok, "\(restored.text)")
            #expect(restored.string("email") == "owner@example.com")
            #expect(restored["emailVerified"] == .bool(true))
            #expect(try await api.post(Path.update, ["oobCode": code]).errorMessage == "INVALID_OOB_CODE")
            // The hijacker's session is over.
            #expect(try await api.refresh(hijacker.refreshToken).errorMessage == "TOKEN_EXPIRED")
            let account = try await api.admin(.post, Path.lookup, body: #"{"localId":["\#(owner.localId)"]}"#)
            #expect(account["users"]?.arrayValue?.first?["email"]?.stringValue == "owner@example.com")
        }
    }

    @Test("confirming a VERIFY_AND_CHANGE_EMAIL link also mails the old address; the action page's POST restores it")
    func recoverThroughActionPage() async throws {
        try await withFlint { api in
            let user = try await api.signUp("page-owner@example.com", "password1")
            _ = try await api.post(
                Path.sendOob, ["requestType": "VERIFY_AND_CHANGE_EMAIL", "idToken": user.idToken, "newEmail": "page-thief@example.com"])
            let change = try await ChangeEmailTests.changeCode(api, to: "page-thief@example.com")
            #expect(try await api.post(Path.update, ["oobCode": change.code]).status == .ok)
            let (code, link) = try await Self.recoverCode(api, to: "page-owner@example.com")
            let page = try await api.call(.get, ActionPageTests.local(link))
            #expect(page.status == .ok)
            #expect(page.text.contains("<form"))
            let form = "mode=recoverEmail&oobCode=\(code)&apiKey=test&lang=en"
            let done = try await api.call(.post, Path.action, body: form, contentType: "application/x-www-form-urlencoded")
            #expect(done.status == .ok, "\(done.text)")
            #expect(try await api.signInWithPassword("page-owner@example.com", "password1").status == .ok)
        }
    }

    @Test("an operator's email change sends no recovery link, and sendOobCode refuses RECOVER_EMAIL")
    func operatorChangeAndDirectRequest() async throws {
        try await withFlint { api in
            let user = try await api.signUp("op-old@example.com", "password1")
            let changed = try await api.admin(.post, Path.update, body: #"{"localId":"\#(user.localId)","email":"op-new@example.com"}"#)
            #expect(changed.status == .ok, "\(changed.text)")
            #expect(try await api.oobCodes().allSatisfy { $0["requestType"]?.stringValue != "RECOVER_EMAIL" })
            let direct = try await api.post(Path.sendOob, ["requestType": "RECOVER_EMAIL", "email": "op-old@example.com"])
            #expect(direct.errorCode == "INVALID_REQ_TYPE")
        }
    }

    @Test("every built-in locale has a recover-email text")
    func templatesInEveryLocale() {
        let templates = EmailTemplates.builtIn
        for locale in ["en", "fr", "de", "es", "it", "pt-BR", "tr", "ar", "ru", "ja", "zh-CN", "zh-TW"] {
            #expect(templates.locale(for: .recoverEmail, requested: [locale]) == locale)
        }
    }
}
