/// A catalogue of email templates by locale and action.
///
/// Locale keys are BCP 47 tags stored in canonical form (`pt_br` becomes `pt-BR`). Each template uses the
/// placeholders `{app}`, `{link}` and `{email}`; operators override templates through the project config
/// (see FlintCore's `EmailTemplates.parseOverrides(_:)`).
package struct EmailTemplates: Sendable, Equatable {
    /// Templates keyed by canonical locale tag, then action.
    package private(set) var templates: [String: [EmailAction: EmailTemplate]] = [:]
    /// For each action, the locales that have a template for it (see ``LocaleNegotiation/index(_:)``).
    private var localeIndex: [EmailAction: [String: String]] = [:]

    /// A catalogue holding exactly `templates` (keys are canonicalized; malformed ones dropped).
    package init(_ templates: [String: [EmailAction: EmailTemplate]]) {
        add(templates)
    }

    /// The catalogue Flint ships: en, fr, de, es, it, pt-BR, tr, ar, ru, ja, zh-CN and zh-TW.
    package static let builtIn = EmailTemplates(builtInTemplates)

    /// The locales with at least one template, sorted.
    package var locales: [String] { templates.keys.sorted() }

    /// This catalogue with `overrides` applied template by template.
    ///
    /// An override replaces the whole template (subject, text and HTML) for its locale and action only;
    /// other actions of that locale and other locales are kept, and new locales may be added.
    /// FlintCore's `parseOverrides(_:)` completes a partial override from the built-in template of its locale,
    /// so the operator may change just a subject.
    package func merging(overrides: [String: [EmailAction: EmailTemplate]]) -> EmailTemplates {
        var merged = self
        merged.add(overrides)
        return merged
    }

    /// The canonical tag of the locale ``render(action:locale:app:link:email:)`` would use, without rendering.
    package func locale(for action: EmailAction, requested: [String]) -> String {
        let locale = LocaleNegotiation.bestMatch(for: requested, index: localeIndex[action] ?? [:])
        return templates[locale]?[action] == nil ? LocaleNegotiation.fallback : locale
    }

    /// Renders the email for `action` in the best locale for `requested` (see
    /// ``LocaleNegotiation/bestMatch(for:available:fallback:)``), falling back to English.
    ///
    /// Placeholders are filled in one pass, so values are never re-scanned. In the HTML body every value is
    /// HTML-escaped (`&`, `<`, `>`, `"`, `'`), which also makes the link safe inside a quoted `href`. In the
    /// text body values are inserted as they are; in the subject, CR and LF are removed from them first, so a
    /// value cannot start a new header line.
    ///
    /// - Parameters:
    ///   - requested: Candidate locales, most preferred first, e.g. from
    ///     ``LocaleNegotiation/candidates(firebaseLocale:acceptLanguage:)``.
    ///   - app: Replaces `{app}`.
    ///   - link: Replaces `{link}`: the action link the recipient opens.
    ///   - email: Replaces `{email}`: the recipient's address.
    /// - Returns: The subject, both bodies and the canonical tag of the locale used.
    package func render(action: EmailAction, locale requested: [String], app: String, link: String, email: String) -> EmailContent {
        let locale = LocaleNegotiation.bestMatch(for: requested, index: localeIndex[action] ?? [:])
        let found = templates[locale]?[action]
        let template =
            found ?? Self.builtIn.templates[LocaleNegotiation.fallback]?[action]
            ?? EmailTemplate(subject: "{app}", text: "{link}", html: "<a href=\"{link}\">{link}</a>")
        let values = ["app": app, "link": link, "email": email]
        return EmailContent(
            subject: Placeholders.fill(template.subject, values: values.mapValues(Self.removingLineBreaks)),
            text: Placeholders.fill(template.text, values: values),
            html: Placeholders.fill(template.html, values: values.mapValues(HTMLEscaping.escape)),
            locale: found == nil ? LocaleNegotiation.fallback : locale
        )
    }

    // MARK: - Helpers

    private mutating func add(_ more: [String: [EmailAction: EmailTemplate]]) {
        var updated = templates
        for (tag, byAction) in more.sorted(by: { $0.key < $1.key }) {
            guard let locale = LocaleNegotiation.canonical(tag) else { continue }
            updated[locale, default: [:]].merge(byAction) { _, new in new }
        }
        templates = updated
        localeIndex = [:]
        for action in EmailAction.allCases {
            localeIndex[action] = LocaleNegotiation.index(updated.keys.filter { updated[$0]?[action] != nil }.sorted())
        }
    }

    /// `value` without CR and LF (a CR LF pair is one `Character`, so filter scalars).
    private static func removingLineBreaks(_ value: String) -> String {
        var out = String.UnicodeScalarView()
        out.append(contentsOf: value.unicodeScalars.lazy.filter { $0 != "\r" && $0 != "\n" })
        return String(out)
    }
}
