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
    /// The reset form's hint before an enforced password policy's rules, and the lead-in of the rules a refused
    /// password missed.
    var passwordNeeds: String
    var passwordMissing: String
    /// One phrase per rule of a password policy (``phrase(_:)``); `{n}` is the length.
    var ruleMinLength: String
    var ruleMaxLength: String
    var ruleLowercase: String
    var ruleUppercase: String
    var ruleNumeric: String
    var ruleNonAlphanumeric: String

    /// Lowercased canonical tag → tag, for negotiation over ``builtIn``.
    private static let index = LocaleNegotiation.index(builtIn.keys.sorted())

    /// The strings for the best locale for `requested` (English when nothing matches), and that locale's tag.
    static func negotiate(_ requested: [String]) -> (locale: String, strings: ActionPageStrings) {
        let locale = LocaleNegotiation.bestMatch(for: requested, index: index)
        if let strings = builtIn[locale] { return (locale, strings) }
        return (LocaleNegotiation.fallback, english)
    }

    /// The English strings, also the fallback.
    static let english = ActionPageStrings(
        continueButton: "Continue",
        signInTitle: "Sign in to {app}",
        signInBody: "This link signs you in to {app}.",
        signInElsewhere: "To finish signing in, open this link on the device where you asked for it.",
        confirmTitle: "Confirm your email",
        confirmBody: "Confirm that {email} is your email address for {app}.",
        confirmButton: "Confirm",
        resetTitle: "Reset your password",
        resetBody: "Choose a new password for {email}.",
        newPassword: "New password",
        passwordHint: "At least 6 characters.",
        saveButton: "Save password",
        weakPassword: "This password is too weak. Choose a stronger one.",
        verifiedTitle: "Email verified",
        verifiedBody: "Your email address is verified. You can go back to {app}.",
        changedTitle: "Password changed",
        changedBody: "You can now sign in to {app} with your new password.",
        invalidTitle: "This link can't be used",
        invalidBody: "It has already been used, or it isn't valid. Ask for a new link in {app}.",
        expiredTitle: "This link has expired",
        expiredBody: "Links are valid only for a short time. Ask for a new link in {app}.",
        badRequestTitle: "Something's wrong with this link",
        badRequestBody: "Make sure you opened the whole link from the email, or ask for a new one in {app}.",
        verifyAppTitle: "Verify your app",
        verifyAppBody: "Confirm that you are using the app to continue signing in with your phone number.",
        checking: "Checking…",
        needsSecureConnection: "This check needs a secure (https) connection.",
        needsJavaScript: "This check needs JavaScript.",
        passwordNeeds: "Your password needs:",
        passwordMissing: "This password is missing:",
        ruleMinLength: "at least {n} characters",
        ruleMaxLength: "at most {n} characters",
        ruleLowercase: "a lower-case letter",
        ruleUppercase: "an upper-case letter",
        ruleNumeric: "a digit",
        ruleNonAlphanumeric: "a symbol such as ! # % or ?")
}
