/// The writing direction of a locale, for the `dir` attribute of emails and pages.
enum TextDirection: String {
    case leftToRight = "ltr"
    case rightToLeft = "rtl"

    /// Languages written right to left (Arabic, Hebrew, Persian, Urdu, Pashto, Sindhi, Kurdish (Sorani), Yiddish, Dhivehi).
    private static let rightToLeftLanguages: Set<String> = ["ar", "he", "iw", "fa", "ur", "ps", "sd", "ckb", "yi", "dv"]

    /// The direction of `locale` (a BCP 47 tag), judged by its language subtag.
    init(locale: String) {
        let language = locale.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map { $0.lowercased() } ?? ""
        self = Self.rightToLeftLanguages.contains(language) ? .rightToLeft : .leftToRight
    }

    /// The CSS `text-align` value for the start of a line (`left` or `right`), for mail clients without `start`.
    var startAlignment: String { self == .rightToLeft ? "right" : "left" }
}
