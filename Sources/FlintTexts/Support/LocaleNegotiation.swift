/// Chooses the language of a message from what the client asked for.
///
/// Clients send `X-Firebase-Locale` (set by the Firebase SDKs from `auth.languageCode`)
/// and the usual `Accept-Language`. ``candidates(firebaseLocale:acceptLanguage:)`` turns
/// them into an ordered list of BCP 47 tags; ``bestMatch(for:available:fallback:)`` picks
/// the first one a catalogue can serve.
package enum LocaleNegotiation {
    /// The locale used when nothing the client asked for is available.
    package static let fallback = "en"

    /// The requested locales, most preferred first, in canonical form (`zh-TW`, `fr`).
    ///
    /// `X-Firebase-Locale` comes first (`fr`, `fr-FR`, `zh_TW`, `zh-Hant` are all accepted),
    /// then the `Accept-Language` entries by decreasing `q` (header order breaks ties).
    /// Entries with `q=0`, the `*` wildcard and malformed tags are ignored; duplicates are removed.
    package static func candidates(firebaseLocale: String?, acceptLanguage: String?) -> [String] {
        var result: [String] = []
        func add(_ tag: String) {
            if let tag = canonical(tag), !result.contains(tag) { result.append(tag) }
        }
        if let firebaseLocale { add(firebaseLocale) }
        if let acceptLanguage {
            for entry in parseAcceptLanguage(acceptLanguage) { add(entry) }
        }
        return result
    }

    /// The available locale that best serves `candidates`, or `fallback`.
    ///
    /// Each candidate in turn is tried: exactly (case-insensitive, `_` same as `-`); for
    /// Chinese, by script (`zh-Hant`, `zh-HK`, `zh-MO` → `zh-TW`; `zh`, `zh-Hans`, `zh-SG` →
    /// `zh-CN`, each falling back to the other); by dropping trailing subtags (`fr-CA` → `fr`);
    /// and finally by language alone (`pt-PT` → `pt-BR`). The result is spelled as in `available`.
    package static func bestMatch(
        for candidates: [String], available: some Sequence<String>, fallback: String = fallback
    ) -> String {
        bestMatch(for: candidates, index: index(available), fallback: fallback)
    }

    /// Lowercased canonical tag → tag as spelled in `available` (first spelling wins).
    static func index(_ available: some Sequence<String>) -> [String: String] {
        var byKey: [String: String] = [:]
        for locale in available {
            if let key = canonical(locale)?.lowercased(), byKey[key] == nil { byKey[key] = locale }
        }
        return byKey
    }

    /// ``bestMatch(for:available:fallback:)`` against a prebuilt ``index(_:)``.
    static func bestMatch(for candidates: [String], index byKey: [String: String], fallback: String = fallback) -> String {
        for candidate in candidates {
            if let match = match(candidate, in: byKey) { return match }
        }
        return fallback
    }

    /// `tag` in canonical BCP 47 case with `-` separators (`zh_hant_tw` → `zh-Hant-TW`),
    /// or `nil` if it is not a well-formed language tag.
    package static func canonical(_ tag: String) -> String? {
        let parts = tag.trimmingASCIIWhitespace().split(
            omittingEmptySubsequences: false, whereSeparator: { $0 == "-" || $0 == "_" })
        guard let language = parts.first, (2...3).contains(language.count),
            language.allSatisfy({ $0.isASCII && $0.isLetter })
        else { return nil }
        var out = [language.lowercased()]
        for part in parts.dropFirst() {
            guard (1...8).contains(part.count), part.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) })
            else { return nil }
            if part.count == 4, part.allSatisfy(\.isLetter) {
                out.append(part.prefix(1).uppercased() + part.dropFirst().lowercased())  // script
            } else if part.count == 2 || (part.count == 3 && part.allSatisfy(\.isNumber)) {
                out.append(part.uppercased())  // region
            } else {
                out.append(part.lowercased())
            }
        }
        return out.joined(separator: "-")
    }

    // MARK: - Helpers

    private static func match(_ candidate: String, in byKey: [String: String]) -> String? {
        guard let tag = canonical(candidate) else { return nil }
        let subtags = tag.lowercased().split(separator: "-").map(String.init)
        let key = subtags.joined(separator: "-")
        if let exact = byKey[key] { return exact }
        let language = subtags[0]
        if language == "zh" {
            let traditional =
                subtags.contains("hant")
                || (!subtags.contains("hans") && subtags.contains { ["tw", "hk", "mo"].contains($0) })
            for key in traditional ? ["zh-tw", "zh-cn"] : ["zh-cn", "zh-tw"] {
                if let found = byKey[key] { return found }
            }
        }
        for length in stride(from: subtags.count - 1, through: 1, by: -1) {
            if let found = byKey[subtags.prefix(length).joined(separator: "-")] { return found }
        }
        let sameLanguage = byKey.keys.filter { $0.split(separator: "-").first.map(String.init) == language }
        return sameLanguage.min().flatMap { byKey[$0] }
    }

    /// Accept-Language tags ordered by decreasing quality, without `*` and `q=0` entries.
    private static func parseAcceptLanguage(_ header: String) -> [String] {
        var entries: [(tag: String, quality: Double, index: Int)] = []
        for (index, item) in header.split(separator: ",").prefix(32).enumerated() {
            let fields = item.split(separator: ";")
            guard let tag = fields.first?.trimmingASCIIWhitespace(), !tag.isEmpty, tag != "*" else { continue }
            var quality = 1.0
            for parameter in fields.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingASCIIWhitespace() }
                guard pair.count == 2, pair[0].lowercased() == "q" else { continue }
                quality = Double(pair[1]).map { min(max($0, 0), 1) } ?? 0
            }
            if quality > 0 { entries.append((tag, quality, index)) }
        }
        entries.sort { $0.quality != $1.quality ? $0.quality > $1.quality : $0.index < $1.index }
        return entries.map(\.tag)
    }
}

extension StringProtocol {
    /// The string without leading and trailing spaces, tabs and line breaks.
    fileprivate func trimmingASCIIWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        guard let start = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(self[start...last])
    }
}
