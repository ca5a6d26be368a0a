import FlintCore
import FlintServer
import FlintTexts

/// One text the templates page edits: an email (by Firebase's request type) or an SMS (by purpose), in one locale.
///
/// Its parts are `subject`, `text` and `html` for an email, `text` for an SMS; the stored overrides are the config's
/// `flint.emailTemplates` (locale → request type → parts) and `flint.smsTemplates` (locale → purpose → text).
struct ConsoleTemplateChoice: Sendable, Equatable {
    /// What kind of text: an email action or an SMS purpose.
    enum Kind: Sendable, Equatable {
        case email(EmailAction)
        case sms(SMSPurpose)
    }

    /// The canonical locale tag.
    let locale: String
    let kind: Kind

    /// Every text, in the order of the page's menus.
    static let kinds: [Kind] = EmailAction.allCases.map(Kind.email) + SMSPurpose.allCases.map(Kind.sms)

    /// The text of `id` (``Kind/id``) in `locale`; `nil` when either is unknown or malformed.
    init?(locale: String, id: String) {
        guard let canonical = LocaleNegotiation.canonical(locale), let kind = Self.kinds.first(where: { $0.id == id }) else { return nil }
        (self.locale, self.kind) = (canonical, kind)
    }

    /// The config path holding this kind's overrides, which is also the save's `updateMask`.
    var mask: String {
        if case .email = kind { return "flint.emailTemplates" }
        return "flint.smsTemplates"
    }

    /// The parts of the text, in the editor's order.
    var parts: [String] {
        if case .email = kind { return ["subject", "text", "html"] }
        return ["text"]
    }

    /// The built-in parts for this locale, `nil` when Flint ships none for it (English is then sent).
    var builtIn: [String: String]? { Self.builtIn(kind, locale: locale) }

    /// The built-in parts of `kind` in `locale`, if Flint ships them.
    static func builtIn(_ kind: Kind, locale: String) -> [String: String]? {
        switch kind {
        case .email(let action):
            guard let template = EmailTemplates.builtIn.templates[locale]?[action] else { return nil }
            return ["subject": template.subject, "text": template.text, "html": template.html]
        case .sms(let purpose):
            return SMSTemplates.builtIn.templates[locale]?[purpose].map { ["text": $0] }
        }
    }

    /// The parts the config overrides for this text, as stored.
    func overrides(in config: ProjectConfig) -> [String: String] {
        guard let entry = Self.entry(of: kind, locale: locale, in: config) else { return [:] }
        if case .sms = kind { return entry.stringValue.map { ["text": $0] } ?? [:] }
        return (entry.objectValue ?? [:]).compactMapValues(\.stringValue)
    }

    /// What is sent for this text: the overridden parts, the others from the locale's built-in text, or from English
    /// where Flint ships none for the locale.
    func effective(in config: ProjectConfig) -> [String: String] {
        let base = builtIn ?? Self.builtIn(kind, locale: LocaleNegotiation.fallback) ?? [:]
        return base.merging(overrides(in: config)) { $1 }
    }

    /// The stored override of `kind` in the locale `locale` (whatever spelling of it the config uses).
    static func entry(of kind: Kind, locale: String, in config: ProjectConfig) -> JSONValue? {
        storedLocale(kind, locale: locale, in: config)?.entries[kind.name]
    }

    /// The stored overrides of `kind`'s channel (`flint.emailTemplates` or `flint.smsTemplates`), by locale as written.
    static func stored(_ kind: Kind, in config: ProjectConfig) -> [String: JSONValue] {
        let field = if case .email = kind { "emailTemplates" } else { "smsTemplates" }
        return config.document["flint"]?[field]?.objectValue ?? [:]
    }

    /// The stored overrides of `kind`'s channel in `locale`: the key as written, and the entries by name.
    private static func storedLocale(_ kind: Kind, locale: String, in config: ProjectConfig) -> (key: String, entries: [String: JSONValue])? {
        stored(kind, in: config).first { LocaleNegotiation.canonical($0.key) == locale }.map { ($0.key, $0.value.objectValue ?? [:]) }
    }

    /// The channel's overrides with this text's entry replaced by the `parts` that differ from the locale's built-in
    /// text (all of them where Flint ships none for the locale), or removed when none differs: what a save patches
    /// `flint.emailTemplates` or `flint.smsTemplates` with (`nil` clears it).
    func replacing(with parts: [String: String], in config: ProjectConfig) -> JSONValue? {
        let base = builtIn
        let kept = parts.filter { base?[$0.key] != $0.value }
        var entry: JSONValue?
        if !kept.isEmpty {
            if case .sms = kind { entry = .string(kept["text"] ?? "") } else { entry = .object(kept.mapValues(JSONValue.string)) }
        }
        var all = Self.stored(kind, in: config)
        var byName: [String: JSONValue] = [:]
        if let existing = Self.storedLocale(kind, locale: locale, in: config) {
            all[existing.key] = nil
            byName = existing.entries
        }
        byName[kind.name] = entry
        if !byName.isEmpty { all[locale] = .object(byName) }
        return all.isEmpty ? nil : .object(all)
    }

    /// The patch that stores `overrides` (from ``replacing(with:in:)``) under ``mask``.
    func patch(_ overrides: JSONValue?) -> [String: JSONValue] {
        var flint: [String: JSONValue] = [:]
        flint[String(mask.dropFirst("flint.".count))] = overrides
        return ["flint": .object(flint)]
    }
}

extension ConsoleTemplateChoice.Kind {
    /// The key of its overrides: the request type or the purpose.
    var name: String {
        switch self {
        case .email(let action): action.rawValue
        case .sms(let purpose): purpose.rawValue
        }
    }

    /// The value of the page's `template` parameter: `email.EMAIL_SIGNIN`, `sms.signIn`, ….
    var id: String {
        switch self {
        case .email(let action): "email.\(action.rawValue)"
        case .sms(let purpose): "sms.\(purpose.rawValue)"
        }
    }

    /// What the page calls it.
    var label: String {
        switch self {
        case .email(.signIn): "Email: sign-in link"
        case .email(.verifyEmail): "Email: address verification"
        case .email(.passwordReset): "Email: password reset"
        case .email(.verifyAndChangeEmail): "Email: email change, to the new address"
        case .email(.recoverEmail): "Email: email change, recovery to the old address"
        case .sms(.signIn): "SMS: sign-in code"
        case .sms(.mfaEnrollment): "SMS: second factor enrolment code"
        case .sms(.mfaSignIn): "SMS: second factor sign-in code"
        }
    }
}
