import Testing

@testable import FlintTexts

@Suite("Email templates")
struct EmailTemplateTests {
    static let builtInLocales = ["en", "fr", "de", "es", "it", "pt-BR", "tr", "ar", "ru", "ja", "zh-CN", "zh-TW"]
    static let link = "https://acme.example/__/auth/action?mode=signIn&oobCode=abc"

    @Test("The built-in catalogue covers the SMS locales, each with every action")
    func builtInCatalogueIsComplete() {
        #expect(Set(EmailTemplates.builtIn.locales) == Set(Self.builtInLocales))
        #expect(Set(EmailTemplates.builtIn.locales) == Set(SMSTemplates.builtIn.locales))
        for locale in Self.builtInLocales {
            #expect(EmailTemplates.builtIn.templates[locale]?.count == EmailAction.allCases.count)
        }
    }

    @Test("Every built-in template puts {link} in both bodies and uses only known placeholders", arguments: builtInLocales)
    func builtInTemplatesAreWellFormed(locale: String) throws {
        for action in EmailAction.allCases {
            let template = try #require(EmailTemplates.builtIn.templates[locale]?[action])
            #expect(template.text.contains("{link}"))
            #expect(template.html.contains("{link}"))
            #expect(template.subject.contains("{app}"))
            for part in [template.subject, template.text, template.html] {
                #expect(Set(Placeholders.names(in: part)).isSubset(of: ["app", "link", "email"]))
            }
            #expect(!template.subject.contains("\n"))
        }
    }

    @Test("Every locale and action renders with the link, app and address", arguments: builtInLocales, EmailAction.allCases)
    func everyLocaleRenders(locale: String, action: EmailAction) {
        let email = EmailTemplates.builtIn.render(action: action, locale: [locale], app: "Acme Chat", link: Self.link, email: "ada@example.com")
        #expect(email.locale == locale)
        #expect(email.subject.contains("Acme Chat"))
        #expect(email.text.contains(Self.link))
        #expect(email.text.contains("ada@example.com"))
        #expect(email.html.contains("href=\"https://acme.example/__/auth/action?mode=signIn&amp;oobCode=abc\""))
        #expect(email.html.contains("ada@example.com"))
        #expect(email.html.hasPrefix("<!DOCTYPE html>"))
        #expect(email.html.contains("lang=\"\(locale)\""))
        #expect(email.html.contains("dir=\"rtl\"") == (locale == "ar"))
        for part in [email.subject, email.text, email.html] {
            #expect(Placeholders.names(in: part).isEmpty)
        }
    }

    @Test("Built-in texts differ between actions and locales")
    func textsAreDistinct() {
        let all = Self.builtInLocales.flatMap { locale in
            EmailAction.allCases.compactMap { EmailTemplates.builtIn.templates[locale]?[$0] }
        }
        #expect(Set(all.map(\.subject)).count == all.count)
        #expect(Set(all.map(\.text)).count == all.count)
    }

    @Test("The English sign-in email says what the link does, that it expires, and what to do if unexpected")
    func englishSignInText() {
        let email = EmailTemplates.builtIn.render(action: .signIn, locale: ["en-US"], app: "Acme", link: "https://l", email: "a@b.c")
        #expect(email.subject == "Sign in to Acme")
        #expect(email.text.contains("\n\nhttps://l\n\n"))
        #expect(email.text.contains("expires after a short time and can be used only once"))
        #expect(email.text.contains("If you didn't ask to sign in, you can ignore this email."))
        #expect(email.text.hasSuffix("Thanks,\nThe Acme team\n"))
        #expect(email.html.contains("Thanks,<br>\nThe Acme team"))
        #expect(email.html.contains("If you didn&#39;t ask to sign in"))
    }

    @Test(
        "Rendering picks the locale by negotiation",
        arguments: [
            (["fr-CA"], "fr"), (["zh-Hant-TW"], "zh-TW"), (["zh-TW"], "zh-TW"), (["zh-HK"], "zh-TW"), (["zh"], "zh-CN"),
            (["pt-PT"], "pt-BR"), (["ar-EG"], "ar"), (["sv", "de-CH"], "de"), (["xx"], "en"), ([], "en"),
        ])
    func renderingNegotiates(requested: [String], expected: String) {
        let email = EmailTemplates.builtIn.render(action: .passwordReset, locale: requested, app: "A", link: "https://l", email: "e@x")
        #expect(email.locale == expected)
        #expect(email.subject == Placeholders.fill(EmailTemplates.builtIn.templates[expected]?[.passwordReset]?.subject ?? "", values: ["app": "A"]))
    }

    @Test("Values are HTML-escaped in the HTML body and raw in the text body")
    func valuesAreEscapedInHTML() {
        let email = EmailTemplates.builtIn.render(
            action: .verifyEmail, locale: ["en"], app: "<script>alert('x')</script>", link: "https://l/?a=1&b=\"2\"", email: "a&b@x.y")
        #expect(!email.html.contains("<script>"))
        #expect(email.html.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"))
        #expect(email.html.contains("href=\"https://l/?a=1&amp;b=&quot;2&quot;\""))
        #expect(email.html.contains("a&amp;b@x.y"))
        #expect(email.text.contains("<script>alert('x')</script>"))
        #expect(email.text.contains("https://l/?a=1&b=\"2\""))
        #expect(email.subject == "Verify your email for <script>alert('x')</script>")
    }

    @Test("Values are inserted once and never scanned for placeholders")
    func valuesAreNotRescanned() {
        let email = EmailTemplates.builtIn.render(action: .signIn, locale: ["en"], app: "{link}", link: "https://l/{email}", email: "{app}")
        #expect(email.subject == "Sign in to {link}")
        #expect(email.text.contains("sign in to {link} with {app}."))
        #expect(email.text.contains("https://l/{email}"))
        #expect(email.html.contains("sign in to {link} with {app}."))
    }

    @Test("Line breaks are removed from values in the subject only")
    func subjectValuesLoseLineBreaks() {
        let email = EmailTemplates.builtIn.render(action: .signIn, locale: ["en"], app: "Acme\r\nBcc: x@evil.test\n", link: "https://l", email: "a@b")
        #expect(email.subject == "Sign in to AcmeBcc: x@evil.test")
        #expect(email.text.contains("Acme\r\nBcc: x@evil.test\n"))
    }

    @Test("A catalogue without English still renders English")
    func catalogueWithoutEnglishFallsBackToBuiltIn() {
        let templates = EmailTemplates(["fr": [.signIn: EmailTemplate(subject: "s", text: "{link}", html: "{link}")]])
        let email = templates.render(action: .passwordReset, locale: ["de"], app: "Acme", link: "https://l", email: "a@b")
        #expect(email.locale == "en")
        #expect(email.subject == "Reset your password for Acme")
    }
}
