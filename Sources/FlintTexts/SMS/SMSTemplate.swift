/// Why an SMS with a one-time code is sent.
package enum SMSPurpose: String, Sendable, CaseIterable, Codable {
    /// Phone sign-in or phone linking (`sendVerificationCode`).
    case signIn
    /// Enrolling the phone as a second factor (`mfaEnrollment:start`).
    case mfaEnrollment
    /// Signing in with an enrolled phone second factor (`mfaSignIn:start`).
    case mfaSignIn
}

/// A catalogue of SMS texts by locale and purpose.
///
/// Texts use the placeholders `{code}` (the one-time code) and `{app}` (the app or
/// project name). Locale keys are BCP 47 tags and are stored in canonical form
/// (`zh_tw` and `ZH-tw` both become `zh-TW`).
package struct SMSTemplates: Sendable, Equatable {
    /// Texts keyed by canonical locale tag, then purpose.
    package private(set) var templates: [String: [SMSPurpose: String]] = [:]
    /// For each purpose, the locales that have a text for it (see ``LocaleNegotiation/index(_:)``).
    private var localeIndex: [SMSPurpose: [String: String]] = [:]

    /// A catalogue holding exactly `templates` (keys are canonicalized; malformed ones dropped).
    package init(_ templates: [String: [SMSPurpose: String]]) {
        add(templates)
    }

    /// The catalogue Flint ships: en, fr, de, es, it, pt-BR, tr, ar, ru, ja, zh-CN and zh-TW.
    package static let builtIn = SMSTemplates(builtInTexts)

    /// The locales with at least one text, sorted.
    package var locales: [String] { templates.keys.sorted() }

    /// This catalogue with `overrides` applied text by text: an override replaces the text
    /// for its locale and purpose only, and may add new locales.
    package func merging(overrides: [String: [SMSPurpose: String]]) -> SMSTemplates {
        var merged = self
        merged.add(overrides)
        return merged
    }

    /// Renders the text for `purpose` in the best locale for `requested` (see
    /// ``LocaleNegotiation/bestMatch(for:available:fallback:)``), falling back to English.
    ///
    /// - Parameters:
    ///   - requested: Candidate locales, most preferred first, e.g. from
    ///     ``LocaleNegotiation/candidates(firebaseLocale:acceptLanguage:)``.
    ///   - app: Replaces `{app}`.
    ///   - code: Replaces `{code}`.
    /// - Returns: The message and the canonical tag of the locale used.
    package func render(
        purpose: SMSPurpose, locale requested: [String], app: String, code: String
    ) -> (text: String, locale: String) {
        let locale = LocaleNegotiation.bestMatch(for: requested, index: localeIndex[purpose] ?? [:])
        let template =
            templates[locale]?[purpose]
            ?? Self.builtIn.templates[LocaleNegotiation.fallback]?[purpose]
            ?? "{code}"
        let text = Placeholders.fill(template, values: ["code": code, "app": app])
        let usedLocale = templates[locale]?[purpose] == nil ? LocaleNegotiation.fallback : locale
        return (text, usedLocale)
    }

    // MARK: - Helpers

    private mutating func add(_ texts: [String: [SMSPurpose: String]]) {
        var updated = templates
        for (tag, byPurpose) in texts.sorted(by: { $0.key < $1.key }) {
            guard let locale = LocaleNegotiation.canonical(tag) else { continue }
            updated[locale, default: [:]].merge(byPurpose) { _, new in new }
        }
        templates = updated
        localeIndex = Self.localeIndex(updated)
    }

    private static func localeIndex(_ templates: [String: [SMSPurpose: String]]) -> [SMSPurpose: [String: String]] {
        var index: [SMSPurpose: [String: String]] = [:]
        for purpose in SMSPurpose.allCases {
            index[purpose] = LocaleNegotiation.index(templates.keys.filter { templates[$0]?[purpose] != nil }.sorted())
        }
        return index
    }
}
