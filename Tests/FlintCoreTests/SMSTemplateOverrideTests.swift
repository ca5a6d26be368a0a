import FlintTexts
import Testing

@testable import FlintCore

/// `flint.smsTemplates`: the operator's overrides of FlintTexts' SMS texts, checked by the project config.
@Suite("SMS template overrides")
struct SMSTemplateOverrideTests {
    @Test("Every built-in text parses back as a valid override", arguments: SMSTemplates.builtIn.locales)
    func builtInTextsPassOverrideValidation(locale: String) throws {
        let texts = try #require(SMSTemplates.builtIn.templates[locale])
        let value = JSONValue.object([locale: .object(Dictionary(uniqueKeysWithValues: texts.map { ($0.key.rawValue, JSONValue.string($0.value)) }))])
        #expect(try SMSTemplates.parseOverrides(value)[locale] == texts)
    }

    @Test("Overrides parse under the canonical locale and replace only their locale and purpose")
    func overridesMerge() throws {
        let overrides = try SMSTemplates.parseOverrides(["fr": ["signIn": "Code {app} : {code}"], "nl_nl": ["mfaSignIn": "{code}\nvoor {app}"]])
        #expect(overrides == ["fr": [.signIn: "Code {app} : {code}"], "nl-NL": [.mfaSignIn: "{code}\nvoor {app}"]])
        let texts = SMSTemplates.builtIn.merging(overrides: overrides)
        let french = texts.render(purpose: .signIn, locale: ["fr-CA"], app: "Acme", code: "123456")
        #expect(french.text == "Code Acme : 123456" && french.locale == "fr")
        let builtIn = SMSTemplates.builtIn.render(purpose: .mfaSignIn, locale: ["fr"], app: "Acme", code: "1").text
        #expect(texts.render(purpose: .mfaSignIn, locale: ["fr"], app: "Acme", code: "1").text == builtIn)
        #expect(texts.render(purpose: .mfaSignIn, locale: ["nl"], app: "Acme", code: "42").text == "42\nvoor Acme")
        #expect(texts.render(purpose: .signIn, locale: ["nl"], app: "Acme", code: "42").locale == "en")
    }

    @Test("No overrides: null and an empty object")
    func emptyOverrides() throws {
        #expect(try SMSTemplates.parseOverrides(.null).isEmpty)
        #expect(try SMSTemplates.parseOverrides([:]).isEmpty)
    }

    @Test(
        "Invalid overrides throw INVALID_CONFIG naming the path",
        arguments: [
            (.string("x"), "SMS templates must be a map from locale to purposes, got TYPE_STRING"),
            (["f": ["signIn": "{code}"]], "SMS template locale \"f\" is not a valid language tag"),
            (["fr": ["signIn": "{code}"], "FR": ["signIn": "{code}"]], "SMS template locales \"FR\" and \"fr\" are the same locale"),
            (["fr": "x"], "SMS template fr must be a map from purpose to text, got TYPE_STRING"),
            (["fr": ["SIGN_IN": "{code}"]], "SMS template fr has unknown purpose \"SIGN_IN\"; use one of signIn, mfaEnrollment, mfaSignIn"),
            (["fr": ["signIn": .bool(true)]], "SMS template fr.signIn must be a string, got TYPE_BOOL"),
            (["fr": ["signIn": ""]], "SMS template fr.signIn must not be empty"),
            (["fr": ["signIn": "Votre code pour {app}"]], "SMS template fr.signIn must contain {code}"),
            (["fr": ["signIn": "{code} {link}"]], "SMS template fr.signIn uses unknown placeholder {link}; use {code} or {app}"),
            (["fr": ["signIn": .string("{code} " + String(repeating: "x", count: 300))]], "SMS template fr.signIn is longer than 300 characters"),
            (["fr": ["signIn": "{code}\tfor {app}"]], "SMS template fr.signIn must not contain control characters other than line feeds"),
        ] as [(JSONValue, String)])
    func invalidOverrides(value: JSONValue, detail: String) {
        let error = #expect(throws: AuthError.self) { try SMSTemplates.parseOverrides(value) }
        #expect(error?.code == "INVALID_CONFIG" && error?.rpcStatus == "INVALID_ARGUMENT")
        #expect(error?.detail == detail)
    }

    @Test("The project config refuses a bad override when written and renders a good one")
    func projectConfig() throws {
        #expect(throws: AuthError.self) {
            try ProjectConfig.defaults.applying(patch: ["flint": ["smsTemplates": ["en": ["signIn": "no code"]]]], updateMask: ["flint.smsTemplates"])
        }
        let config = try ProjectConfig.defaults.applying(
            patch: ["flint": ["smsTemplates": ["en": ["signIn": "{code} opens {app}"]]]], updateMask: ["flint.smsTemplates"])
        #expect(config.smsTemplates.render(purpose: .signIn, locale: ["en"], app: "Acme", code: "9").text == "9 opens Acme")
        #expect(ProjectConfig.defaults.smsTemplates == .builtIn)
    }
}
