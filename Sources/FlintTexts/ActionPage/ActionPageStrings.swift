/// The words of the pages Flint serves in one locale: the email action pages and the web challenge page (which
/// borrows ``continueButton`` for its button). Placeholders: `{app}`, and `{email}` where noted.
struct ActionPageStrings {
    /// The primary button that leaves the page for the app.
    var continueButton: String
    var signInTitle: String
    var signInBody: String
    /// Shown instead of the button when there is nowhere to continue to.
    var signInElsewhere: String
    var confirmTitle: String
    /// Uses `{email}`.
    var confirmBody: String
    var confirmButton: String
    var resetTitle: String
    /// Uses `{email}`.
    var resetBody: String
    var newPassword: String
    var passwordHint: String
    var saveButton: String
    var weakPassword: String
    var verifiedTitle: String
    var verifiedBody: String
    var changedTitle: String
    var changedBody: String
    var invalidTitle: String
    var invalidBody: String
    var expiredTitle: String
    var expiredBody: String
    var badRequestTitle: String
    var badRequestBody: String
    /// The web challenge page (``ChallengePage``), chosen by the request's `hl` (the app's `languageCode`).
    var verifyAppTitle: String
    var verifyAppBody: String
    /// Shown while the browser works out the proof of work.
    var checking: String
    /// Shown when the challenge page is not served over https (WebCrypto is missing).
    var needsSecureConnection: String
    var needsJavaScript: String

    /// Lowercased canonical tag → tag, for negotiation over ``builtIn``.
    private static let index = LocaleNegotiation.index(builtIn.keys.sorted())

    /// The strings for the best locale for `requested` (English when nothing matches), and that locale's tag.
    static func negotiate(_ requested: [String]) -> (locale: String, strings: ActionPageStrings) {
        let locale = LocaleNegotiation.bestMatch(for: requested, index: index)
        if let strings = builtIn[locale] { return (locale, strings) }
        return (LocaleNegotiation.fallback, english)
    }
}
