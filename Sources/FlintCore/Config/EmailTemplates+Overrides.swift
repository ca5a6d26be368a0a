package import FlintTexts

/// Operator overrides of the email templates (`flint.emailTemplates`): a rule of the project config, kept here so
/// ``ProjectConfig`` can refuse a bad override when the config is written; the templates themselves are FlintTexts'.
extension EmailTemplates {
    /// The placeholders a template may use.
    static let placeholders: Set<String> = ["app", "link", "email"]
    /// The longest subject an override may set, in characters.
    static let maxSubjectLength = 250
    /// The largest text or HTML body an override may set, in UTF-8 bytes.
    static let maxBodyBytes = 100_000

    /// Parses operator overrides from a project config value.
    ///
    /// The value is an object keyed by locale, then by action (Firebase's `requestType` names), each
    /// holding any of `subject`, `text` and `html`:
    /// ```json
    /// {
    ///   "fr": {
    ///     "EMAIL_SIGNIN": {"subject": "Votre lien de connexion à {app}"},
    ///     "PASSWORD_RESET": {"subject": "...", "text": "... {link} ...", "html": "... {link} ..."}
    ///   },
    ///   "nl": {"VERIFY_EMAIL": {"subject": "...", "text": "...", "html": "..."}}
    /// }
    /// ```
    /// - Locale keys are BCP 47 tags in any case, with `-` or `_` (`pt-BR`, `zh_tw`); the result uses the
    ///   canonical form. Two spellings of one locale are an error.
    /// - Actions are `EMAIL_SIGNIN`, `VERIFY_EMAIL` and `PASSWORD_RESET`.
    /// - A part left out is taken from Flint's built-in template for the same locale and action, so an
    ///   operator can change only a subject. For a locale Flint does not ship, all three parts are required.
    /// - Parts are non-empty strings using only the placeholders `{app}`, `{link}` and `{email}`; `text` and
    ///   `html` must contain `{link}`; the subject is a single line of at most 250 characters,
    ///   each body at most 100,000 bytes of UTF-8. The operator's HTML is used as written; only the values
    ///   filled into it are escaped (see ``render(action:locale:app:link:email:)``).
    /// - `null` means no overrides.
    ///
    /// Error details name paths relative to `value`, with keys as the operator wrote them; the caller knows
    /// where in the project config the value lives.
    ///
    /// - Returns: Complete templates by canonical locale and action, ready for ``merging(overrides:)``.
    /// - Throws: ``AuthError`` `INVALID_CONFIG` whose detail names the offending path, e.g.
    ///   `email template fr.EMAIL_SIGNIN.html uses unknown placeholder {code}`.
    package static func parseOverrides(_ value: JSONValue) throws(AuthError) -> [String: [EmailAction: EmailTemplate]] {
        try LocaleKeyedOverrides<EmailAction>(noun: "email template", keyNoun: "action", leafNoun: "template").parse(value) {
            (parts, path, locale, action) throws(AuthError) in try parseTemplate(parts, path: path, locale: locale, action: action)
        }
    }

    // MARK: - Helpers

    private static func parseTemplate(
        _ value: JSONValue, path: String, locale: String, action: EmailAction
    ) throws(AuthError) -> EmailTemplate {
        guard let parts = value.objectValue else {
            throw invalid("email template \(path) must be an object with subject, text and html, got \(value.kindName)")
        }
        if let unknown = parts.keys.sorted().first(where: { !["subject", "text", "html"].contains($0) }) {
            throw invalid("email template \(path) has unknown field \"\(unknown)\"; use subject, text or html")
        }
        guard !parts.isEmpty else { throw invalid("email template \(path) must set subject, text or html") }
        let base = builtIn.templates[locale]?[action]
        func part(_ field: String, _ builtInValue: String?) throws(AuthError) -> String {
            guard let raw = parts[field] else {
                guard let builtInValue else {
                    throw invalid("email template \(path).\(field) is required: Flint has no built-in \(locale) template to take it from")
                }
                return builtInValue
            }
            guard let text = raw.stringValue else { throw invalid("email template \(path).\(field) must be a string, got \(raw.kindName)") }
            guard !text.isEmpty else { throw invalid("email template \(path).\(field) must not be empty") }
            if let unknown = Placeholders.names(in: text).first(where: { !placeholders.contains($0) }) {
                throw invalid("email template \(path).\(field) uses unknown placeholder {\(unknown)}; use {app}, {link} or {email}")
            }
            return text
        }
        let template = try EmailTemplate(subject: part("subject", base?.subject), text: part("text", base?.text), html: part("html", base?.html))
        if template.subject.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" }) {
            throw invalid("email template \(path).subject must be a single line")
        }
        if template.subject.count > maxSubjectLength {
            throw invalid("email template \(path).subject is longer than \(maxSubjectLength) characters")
        }
        for (field, body) in [("text", template.text), ("html", template.html)] {
            guard Placeholders.names(in: body).contains("link") else { throw invalid("email template \(path).\(field) must contain {link}") }
            guard body.utf8.count <= maxBodyBytes else { throw invalid("email template \(path).\(field) is larger than \(maxBodyBytes) bytes") }
        }
        return template
    }

    private static func invalid(_ detail: String) -> AuthError { LocaleKeyedOverrides<EmailAction>.invalid(detail) }
}
