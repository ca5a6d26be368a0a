import Testing

@testable import FlintTexts

@Suite("SMS templates and locale negotiation")
struct SMSTemplateTests {
    static let builtInLocales = ["en", "fr", "de", "es", "it", "pt-BR", "tr", "ar", "ru", "ja", "zh-CN", "zh-TW"]

    @Test("The built-in catalogue covers every locale and purpose")
    func builtInCatalogueIsComplete() {
        #expect(Set(SMSTemplates.builtIn.locales) == Set(Self.builtInLocales))
        for locale in Self.builtInLocales {
            #expect(SMSTemplates.builtIn.templates[locale]?.count == SMSPurpose.allCases.count)
        }
    }

    @Test(
        "Every built-in text renders with the code and the app name",
        arguments: builtInLocales, SMSPurpose.allCases)
    func everyLocaleRenders(locale: String, purpose: SMSPurpose) {
        let rendered = SMSTemplates.builtIn.render(
            purpose: purpose, locale: [locale], app: "Acme Chat", code: "123456")
        #expect(rendered.locale == locale)
        #expect(rendered.text.contains("123456"))
        #expect(rendered.text.contains("Acme Chat"))
        #expect(!rendered.text.contains("{"))
    }

    @Test("Built-in texts differ between purposes and locales")
    func textsAreDistinct() {
        let all = Self.builtInLocales.flatMap { locale in
            SMSPurpose.allCases.compactMap { SMSTemplates.builtIn.templates[locale]?[$0] }
        }
        #expect(Set(all).count == all.count)
    }

    @Test("The Traditional Chinese text uses Traditional characters")
    func traditionalChineseIsTraditional() {
        let text = SMSTemplates.builtIn.templates["zh-TW"]?[.signIn] ?? ""
        #expect(text.contains("驗證碼"))
        #expect(!text.contains("验证码"))
    }

    @Test(
        "Candidates put X-Firebase-Locale first, then Accept-Language by quality",
        arguments: [
            ("fr", nil, ["fr"]),
            ("zh_TW", nil, ["zh-TW"]),
            ("zh-hant", nil, ["zh-Hant"]),
            (nil, "de-DE,de;q=0.9,en;q=0.8", ["de-DE", "de", "en"]),
            ("es", "de;q=0.5, fr;q=0.9, it", ["es", "it", "fr", "de"]),
            (nil, "en;q=0.5, ja, *;q=0.1, ru;q=0", ["ja", "en"]),
            (nil, "tr;q=0.8, ar;q=0.8, pt-br;q=0.8", ["tr", "ar", "pt-BR"]),
            ("fr-FR", "fr-fr, en", ["fr-FR", "en"]),
            (" ", "  ,;q=1, 12, en-US ; q=1.0 ", ["en-US"]),
            ("not a tag", "x", []),
            (nil, nil, []),
        ] as [(String?, String?, [String])])
    func candidatesAreOrdered(firebaseLocale: String?, acceptLanguage: String?, expected: [String]) {
        #expect(LocaleNegotiation.candidates(firebaseLocale: firebaseLocale, acceptLanguage: acceptLanguage) == expected)
    }

    @Test(
        "Negotiation picks exact, then Chinese script, then language, then English",
        arguments: [
            (["fr"], "fr"),
            (["FR-fr"], "fr"),
            (["fr-CA"], "fr"),
            (["pt"], "pt-BR"),
            (["pt-PT"], "pt-BR"),
            (["zh_TW"], "zh-TW"),
            (["zh-Hant"], "zh-TW"),
            (["zh-HK"], "zh-TW"),
            (["zh-MO"], "zh-TW"),
            (["zh-Hant-HK"], "zh-TW"),
            (["zh"], "zh-CN"),
            (["zh-Hans"], "zh-CN"),
            (["zh-SG"], "zh-CN"),
            (["zh-Hans-HK"], "zh-CN"),
            (["ar-EG"], "ar"),
            (["sv", "nb", "de-AT"], "de"),
            (["sv", "nb"], "en"),
            ([], "en"),
            (["en-GB", "fr"], "en"),
        ])
    func negotiationPicksTheBestLocale(requested: [String], expected: String) {
        #expect(LocaleNegotiation.bestMatch(for: requested, available: SMSTemplates.builtIn.locales) == expected)
    }

    @Test("Without Simplified Chinese, simplified requests get Traditional Chinese")
    func simplifiedFallsBackToTraditional() {
        #expect(LocaleNegotiation.bestMatch(for: ["zh-CN"], available: ["en", "zh-TW"]) == "zh-TW")
        #expect(LocaleNegotiation.bestMatch(for: ["zh-Hant"], available: ["en", "zh-CN"]) == "zh-CN")
    }

    @Test("Rendering follows the header precedence end to end")
    func renderingUsesNegotiatedLocale() {
        let requested = LocaleNegotiation.candidates(firebaseLocale: "sv", acceptLanguage: "ko, de;q=0.7, fr;q=0.8")
        let rendered = SMSTemplates.builtIn.render(purpose: .signIn, locale: requested, app: "Acme", code: "654321")
        #expect(rendered.locale == "fr")
        #expect(rendered.text == "654321 est votre code de validation pour Acme.")
    }

    @Test("Unknown locales render in English")
    func unknownLocaleFallsBackToEnglish() {
        let rendered = SMSTemplates.builtIn.render(purpose: .mfaSignIn, locale: ["xx-YY", "qq"], app: "Acme", code: "111222")
        #expect(rendered.locale == "en")
        #expect(rendered.text == "111222 is your 2-Step Verification code for Acme.")
    }

    @Test("Overrides replace single texts, add locales and keep the rest")
    func overridesMergeTextByText() {
        let templates = SMSTemplates.builtIn.merging(overrides: [
            "fr": [.signIn: "Code {app} : {code}"],
            "nl_nl": [.signIn: "Uw code voor {app} is {code}."],
        ])
        #expect(templates.render(purpose: .signIn, locale: ["fr"], app: "Acme", code: "42").text == "Code Acme : 42")
        #expect(templates.templates["fr"]?[.mfaSignIn] == SMSTemplates.builtIn.templates["fr"]?[.mfaSignIn])
        let dutch = templates.render(purpose: .signIn, locale: ["nl"], app: "Acme", code: "42")
        #expect(dutch == (text: "Uw code voor Acme is 42.", locale: "nl-NL"))
        let dutchMFA = templates.render(purpose: .mfaSignIn, locale: ["nl-NL"], app: "Acme", code: "42")
        #expect(dutchMFA.locale == "en")
        #expect(SMSTemplates.builtIn.templates["nl-NL"] == nil)
    }

    @Test("A catalogue without English still renders English")
    func catalogueWithoutEnglishFallsBackToBuiltIn() {
        let templates = SMSTemplates(["fr": [.signIn: "{code}"]])
        let rendered = templates.render(purpose: .mfaEnrollment, locale: ["de"], app: "Acme", code: "9")
        #expect(rendered.locale == "en")
        #expect(rendered.text == "9 is your code to turn on 2-Step Verification for Acme.")
    }

    @Test(
        "Placeholders are filled once and unknown ones kept",
        arguments: [
            ("{code} {app}", "1 {code}"),
            ("{{code}}", "{1}"),
            ("{other} {code", "{other} {code"),
            ("no placeholders", "no placeholders"),
            ("", ""),
        ])
    func placeholdersAreFilledOnce(template: String, expected: String) {
        #expect(Placeholders.fill(template, values: ["code": "1", "app": "{code}"]) == expected)
    }
}
