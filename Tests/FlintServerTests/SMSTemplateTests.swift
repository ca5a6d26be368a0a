import FlintCore
import FlintServerTestSupport
import FlintStore
import FlintTesting
import FlintTexts
import HTTPTypes
import Testing

@testable import FlintServer

/// `flint.smsTemplates` end to end: set through the admin config API, shown by it, and the text the SMS provider gets.
@Suite("SMS template overrides")
struct SMSTemplateTests {
    static let overrides = #"{"flint":{"smsTemplates":{"fr":{"signIn":"Code {app} : {code}"},"en":{"mfaEnrollment":"Enrol with {code}"}}}}"#

    @Test("a configured override is the text the provider receives, in the requested locale; the others stay built-in")
    func providerGetsTheOverride() async throws {
        let sender = FlakySender(failures: 0)
        let node = try await TestNode.make(sms: sender)
        try await node.run { api in
            let patched = try await api.admin(.patch, Path.config + "?updateMask=flint.smsTemplates", body: Self.overrides)
            #expect(patched.status == .ok, "\(patched.text)")
            #expect(patched["flint"]?["smsTemplates"]?["fr"]?["signIn"] == "Code {app} : {code}")
            #expect(try await api.admin(.get, Path.config)["flint"]?["smsTemplates"]?["en"]?["mfaEnrollment"] == "Enrol with {code}")

            _ = try await api.sendCode("+16505550101", headers: [HTTPField.Name("X-Firebase-Locale")!: "fr-CA"])
            let french = try #require(sender.sent.last)
            #expect(french.body == "Code demo-flint : \(french.code)" && french.locale == "fr")

            _ = try await api.sendCode("+16505550102")
            let english = try #require(sender.sent.last)
            let builtIn = SMSTemplates.builtIn.render(purpose: .signIn, locale: ["en"], app: "demo-flint", code: english.code)
            #expect(english.body == builtIn.text)

            try await api.enableMFA()
            let user = try await api.signInWithEmailLink("mfa@example.com")
            let enrolled = try await api.enrollPhone(user, "+16505550103")
            #expect(enrolled.status == .ok, "\(enrolled.text)")
            let enrolment = try #require(sender.sent.last)
            #expect(enrolment.to == "+16505550103" && enrolment.body == "Enrol with \(enrolment.code)")
        }
    }

    @Test(
        "an invalid override is refused by the admin config API with INVALID_CONFIG",
        arguments: [
            (#"{"en":{"signIn":"no code here"}}"#, "SMS template en.signIn must contain {code}"),
            (#"{"en":{"signIn":"{code} {link}"}}"#, "SMS template en.signIn uses unknown placeholder {link}; use {code} or {app}"),
            (#"{"en":{"login":"{code}"}}"#, "SMS template en has unknown purpose \"login\"; use one of signIn, mfaEnrollment, mfaSignIn"),
        ])
    func invalidOverride(templates: String, detail: String) async throws {
        try await withFlint { api in
            let reply = try await api.admin(
                .patch, Path.config + "?updateMask=flint.smsTemplates", body: #"{"flint":{"smsTemplates":\#(templates)}}"#)
            #expect(reply.status == .badRequest && reply.errorMessage == "INVALID_CONFIG : \(detail)", "\(reply.text)")
            #expect(try await api.admin(.get, Path.config)["flint"]?["smsTemplates"] == nil)
        }
    }
}
