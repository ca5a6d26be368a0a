import FlintTexts
import HTTPTypes
import Testing

@testable import FlintCore

/// `flint.emailTemplates`: the operator's overrides of FlintTexts' email templates, checked by the project config.
@Suite("Email template overrides")
struct EmailTemplateOverrideTests {
    @Test("Every built-in template parses back as a valid override", arguments: EmailTemplates.builtIn.locales)
    func builtInTemplatesPassOverrideValidation(locale: String) throws {
        var actions: [String: JSONValue] = [:]
        for action in EmailAction.allCases {
            let template = try #require(EmailTemplates.builtIn.templates[locale]?[action])
            actions[action.rawValue] = ["subject": .string(template.subject), "text": .string(template.text), "html": .string(template.html)]
        }
        let parsed = try EmailTemplates.parseOverrides([locale: .object(actions)])
        #expect(parsed[locale] == EmailTemplates.builtIn.templates[locale])
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
        #expect(dutch.subject == "Bevestig je e-mailadres voor Acme")
        #expect(dutch.text == "Open https://l?a&b")
        #expect(dutch.html == "<a href=\"https://l?a&amp;b\">&lt;a@b&gt;</a>")
        #expect(dutch.locale == "nl-NL")
        #expect(templates.render(action: .signIn, locale: ["nl"], app: "Acme", link: "https://l", email: "a@b").locale == "en")
        #expect(templates.locales.contains("nl-NL") && !EmailTemplates.builtIn.locales.contains("nl-NL"))
    }

    @Test("No overrides: null and an empty object")
    func emptyOverrides() throws {
        #expect(try EmailTemplates.parseOverrides(.null).isEmpty)
        #expect(try EmailTemplates.parseOverrides([:]).isEmpty)
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
        #expect(error?.status.code == 400)
        #expect(error?.detail?.contains(detail) == true, "\(error?.detail ?? "no detail")")
    }
}
