import Testing

@testable import FlintCore

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

    @Test("Every built-in template parses back as a valid override", arguments: builtInLocales)
    func builtInTemplatesPassOverrideValidation(locale: String) throws {
        var actions: [String: JSONValue] = [:]
        for action in EmailAction.allCases {
            let template = try #require(EmailTemplates.builtIn.templates[locale]?[action])
            actions[action.rawValue] = ["subject": .string(template.subject), "text": .string(template.text), "html": .string(template.html)]
        }
        let parsed = try EmailTemplates.parseOverrides([locale: .object(actions)])
        #expect(parsed[locale] == EmailTemplates.builtIn.templates[locale])
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

    @Test("Overrides parse, complete partial templates from the built-in locale, and merge template by template")
    func overridesMerge() throws {
        let overrides = try EmailTemplates.parseOverrides([
            "fr": ["EMAIL_SIGNIN": ["subject": "Votre lien pour {app}"]],
            "nl_nl": [
                "VERIFY_EMAIL": ["subject": "Bevestig je e-mailadres voor {app}", "text": "Open {link}", "html": "<a href=\"{link}\">{email}</a>"]
            ],
        ])
        let builtInFrench = try #require(EmailTemplates.builtIn.templates["fr"]?[.signIn])
        #expect(overrides["fr"]?[.signIn] == EmailTemplate(subject: "Votre lien pour {app}", text: builtInFrench.text, html: builtInFrench.html))
        #expect(overrides["fr"]?[.verifyEmail] == nil)
        #expect(overrides["nl-NL"]?[.verifyEmail]?.text == "Open {link}")

        let templates = EmailTemplates.builtIn.merging(overrides: overrides)
        let french = templates.render(action: .signIn, locale: ["fr-FR"], app: "Acme", link: "https://l", email: "a@b")
        #expect(french.subject == "Votre lien pour Acme")
        #expect(french.text == EmailTemplates.builtIn.render(action: .signIn, locale: ["fr"], app: "Acme", link: "https://l", email: "a@b").text)
        #expect(templates.templates["fr"]?[.passwordReset] == EmailTemplates.builtIn.templates["fr"]?[.passwordReset])
        let dutch = templates.render(action: .verifyEmail, locale: ["nl"], app: "Acme", link: "https://l?a&b", email: "<a@b>")
        #expect(
            dutch
                == EmailContent(
                    subject: "Bevestig je e-mailadres voor Acme", text: "Open https://l?a&b", html: "<a href=\"https://l?a&amp;b\">&lt;a@b&gt;</a>",
                    locale: "nl-NL"))
        #expect(templates.render(action: .signIn, locale: ["nl"], app: "Acme", link: "https://l", email: "a@b").locale == "en")
        #expect(templates.locales.contains("nl-NL") && !EmailTemplates.builtIn.locales.contains("nl-NL"))
    }

    @Test("No overrides: null and an empty object")
    func emptyOverrides() throws {
        #expect(try EmailTemplates.parseOverrides(.null).isEmpty)
        #expect(try EmailTemplates.parseOverrides([:]).isEmpty)
    }

    @Test("A catalogue without English still renders English")
    func catalogueWithoutEnglishFallsBackToBuiltIn() {
        let templates = EmailTemplates(["fr": [.signIn: EmailTemplate(subject: "s", text: "{link}", html: "{link}")]])
        let email = templates.render(action: .passwordReset, locale: ["de"], app: "Acme", link: "https://l", email: "a@b")
        #expect(email.locale == "en")
        #expect(email.subject == "Reset your password for Acme")
    }

    static let validParts: JSONValue = ["subject": "S {app}", "text": "T {link}", "html": "<p>{link}</p>"]

    @Test(
        "Invalid overrides throw INVALID_CONFIG naming the path",
        arguments: [
            (.string("x"), "email templates must be a map from locale to actions, got TYPE_STRING"),
            (["f": ["EMAIL_SIGNIN": validParts]], "email template locale \"f\" is not a valid language tag"),
            (["fr": "x"], "email template fr must be a map from action to template, got TYPE_STRING"),
            (
                ["fr": ["SIGN_IN": validParts]],
                "email template fr has unknown action \"SIGN_IN\"; use one of EMAIL_SIGNIN, VERIFY_EMAIL, PASSWORD_RESET"
            ),
            (["fr": ["EMAIL_SIGNIN": "x"]], "email template fr.EMAIL_SIGNIN must be an object with subject, text and html, got TYPE_STRING"),
            (["fr": ["EMAIL_SIGNIN": [:]]], "email template fr.EMAIL_SIGNIN must set subject, text or html"),
            (["fr": ["EMAIL_SIGNIN": ["body": "{link}"]]], "email template fr.EMAIL_SIGNIN has unknown field \"body\"; use subject, text or html"),
            (["fr": ["EMAIL_SIGNIN": ["subject": .number(3)]]], "email template fr.EMAIL_SIGNIN.subject must be a string, got TYPE_NUMBER"),
            (["fr": ["EMAIL_SIGNIN": ["subject": ""]]], "email template fr.EMAIL_SIGNIN.subject must not be empty"),
            (
                ["fr": ["PASSWORD_RESET": ["text": "Code {code} {link}"]]],
                "email template fr.PASSWORD_RESET.text uses unknown placeholder {code}; use {app}, {link} or {email}"
            ),
            (["fr": ["EMAIL_SIGNIN": ["html": "<p>{App}</p>{link}"]]], "email template fr.EMAIL_SIGNIN.html uses unknown placeholder {App}"),
            (["de": ["VERIFY_EMAIL": ["text": "Hallo {app}"]]], "email template de.VERIFY_EMAIL.text must contain {link}"),
            (["de": ["VERIFY_EMAIL": ["html": "<a href='{ link }'>x</a>"]]], "email template de.VERIFY_EMAIL.html must contain {link}"),
            (["de": ["VERIFY_EMAIL": ["subject": "Hallo\r\nBcc: x"]]], "email template de.VERIFY_EMAIL.subject must be a single line"),
            (
                ["nl": ["VERIFY_EMAIL": ["subject": "S", "text": "{link}"]]],
                "email template nl.VERIFY_EMAIL.html is required: Flint has no built-in nl template to take it from"
            ),
            (
                ["fr": ["EMAIL_SIGNIN": validParts], "FR": ["VERIFY_EMAIL": validParts]],
                "email template locales \"FR\" and \"fr\" are the same locale"
            ),
            (["fr": ["EMAIL_SIGNIN": ["subject": .string(String(repeating: "a", count: 251))]]], "fr.EMAIL_SIGNIN.subject is longer than 250"),
            (["fr": ["EMAIL_SIGNIN": ["text": .string("{link}" + String(repeating: "a", count: 100_000))]]], "fr.EMAIL_SIGNIN.text is larger than"),
        ] as [(JSONValue, String)])
    func invalidOverridesThrow(value: JSONValue, detail: String) {
        let error = #expect(throws: AuthError.self) { try EmailTemplates.parseOverrides(value) }
        #expect(error?.code == "INVALID_CONFIG")
        #expect(error?.rpcStatus == "INVALID_ARGUMENT")
        #expect(error?.status == 400)
        #expect(error?.detail?.contains(detail) == true, "\(error?.detail ?? "no detail")")
    }
}
