package import FlintTexts

/// Operator overrides of the SMS texts (`flint.smsTemplates`): a rule of the project config, kept here so
/// ``ProjectConfig`` can refuse a bad override when the config is written; the texts themselves are FlintTexts'.
extension SMSTemplates {
    /// The placeholders a text may use.
    static let placeholders: Set<String> = ["app", "code"]
    /// The longest text an override may set, in characters: two concatenated GSM-7 segments hold 306 characters (a
    /// text in another script goes as UCS-2, 67 characters a segment), and `{app}` still grows the message.
    package static let maxLength = 300

    /// Parses operator overrides from a project config value.
    ///
    /// The value is an object keyed by locale, then by purpose (``SMSPurpose``'s names), each holding the text:
    /// ```json
    /// {
    ///   "fr": {"signIn": "Code {app} : {code}", "mfaSignIn": "{code} : votre code de connexion en deux étapes"},
    ///   "nl": {"signIn": "{code} is je code voor {app}"}
    /// }
    /// ```
    /// - Locale keys are BCP 47 tags in any case, with `-` or `_`; the result uses the canonical form. Two spellings of
    ///   one locale are an error.
    /// - Purposes are `signIn` (phone sign-in and linking), `mfaEnrollment` and `mfaSignIn` (SMS second factors).
    /// - A text is a non-empty string that contains `{code}`, uses no placeholder but `{code}` and `{app}`, no control
    ///   character but a line feed, and is at most ``maxLength`` characters long.
    /// - `null` means no overrides.
    ///
    /// - Returns: The texts by canonical locale and purpose, ready for ``merging(overrides:)``.
    /// - Throws: ``AuthError`` `INVALID_CONFIG` whose detail names the offending path, e.g.
    ///   `SMS template fr.signIn must contain {code}`.
    package static func parseOverrides(_ value: JSONValue) throws(AuthError) -> [String: [SMSPurpose: String]] {
        try LocaleKeyedOverrides<SMSPurpose>(noun: "SMS template", keyNoun: "purpose", leafNoun: "text").parse(value) {
            (text, path, _, _) throws(AuthError) in try parseText(text, path: path)
        }
    }

    /// Checks one text (see ``parseOverrides(_:)``); `path` names it in the error.
    /// - Throws: ``AuthError`` `INVALID_CONFIG` naming `path`.
    package static func parseText(_ value: JSONValue, path: String) throws(AuthError) -> String {
        guard let text = value.stringValue else { throw invalid("SMS template \(path) must be a string, got \(value.kindName)") }
        guard !text.isEmpty else { throw invalid("SMS template \(path) must not be empty") }
        let names = Placeholders.names(in: text)
        if let unknown = names.first(where: { !placeholders.contains($0) }) {
            throw invalid("SMS template \(path) uses unknown placeholder {\(unknown)}; use {code} or {app}")
        }
        guard names.contains("code") else { throw invalid("SMS template \(path) must contain {code}") }
        guard text.count <= maxLength else { throw invalid("SMS template \(path) is longer than \(maxLength) characters") }
        if text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control && $0 != "\n" }) {
            throw invalid("SMS template \(path) must not contain control characters other than line feeds")
        }
        return text
    }

    private static func invalid(_ detail: String) -> AuthError { LocaleKeyedOverrides<SMSPurpose>.invalid(detail) }
}
