import FlintTexts

/// The shape of the operator's template overrides (`flint.emailTemplates`, `flint.smsTemplates`): an object keyed by
/// locale, then by a name of `Key` (an email action, an SMS purpose), read with the same rules for both.
///
/// - Locale keys are BCP 47 tags in any case, with `-` or `_`; the result uses the canonical form. Two spellings of
///   one locale are an error.
/// - `null` means no overrides.
/// - Error details name paths as the operator wrote them (`fr.signIn`), each with `noun` in front.
struct LocaleKeyedOverrides<Key: RawRepresentable & CaseIterable & Hashable> where Key.RawValue == String {
    /// What an override is called in errors: `email template`, `SMS template`.
    let noun: String
    /// What the second level names: `action`, `purpose`.
    let keyNoun: String
    /// What a leaf is: `template`, `text`.
    let leafNoun: String

    /// The overrides in `value`, each leaf read by `leaf` with its path (`tag.name`), canonical locale and key.
    /// - Throws: ``AuthError`` `INVALID_CONFIG` naming the offending path, or what `leaf` throws.
    func parse<Leaf>(
        _ value: JSONValue, leaf: (_ value: JSONValue, _ path: String, _ locale: String, _ key: Key) throws(AuthError) -> Leaf
    ) throws(AuthError) -> [String: [Key: Leaf]] {
        if case .null = value { return [:] }
        guard let byLocale = value.objectValue else {
            throw Self.invalid("\(noun)s must be a map from locale to \(keyNoun)s, got \(value.kindName)")
        }
        var result: [String: [Key: Leaf]] = [:]
        var spelling: [String: String] = [:]
        for (tag, entries) in byLocale.sorted(by: { $0.key < $1.key }) {
            guard let locale = LocaleNegotiation.canonical(tag) else {
                throw Self.invalid("\(noun) locale \"\(tag)\" is not a valid language tag")
            }
            if let first = spelling[locale] {
                throw Self.invalid("\(noun) locales \"\(first)\" and \"\(tag)\" are the same locale")
            }
            spelling[locale] = tag
            guard let byKey = entries.objectValue else {
                throw Self.invalid("\(noun) \(tag) must be a map from \(keyNoun) to \(leafNoun), got \(entries.kindName)")
            }
            for (name, part) in byKey.sorted(by: { $0.key < $1.key }) {
                guard let key = Key(rawValue: name) else {
                    let known = Key.allCases.map(\.rawValue).joined(separator: ", ")
                    throw Self.invalid("\(noun) \(tag) has unknown \(keyNoun) \"\(name)\"; use one of \(known)")
                }
                result[locale, default: [:]][key] = try leaf(part, "\(tag).\(name)", locale, key)
            }
        }
        return result
    }

    /// The error of a refused override: `INVALID_CONFIG` with `detail`.
    static func invalid(_ detail: String) -> AuthError {
        AuthError(code: "INVALID_CONFIG", detail: detail, rpcStatus: "INVALID_ARGUMENT")
    }
}
