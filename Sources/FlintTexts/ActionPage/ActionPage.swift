/// The pages of the email action handler (`GET /__/auth/action?mode=…&oobCode=…&lang=…`), as HTML.
///
/// Each function returns a complete HTML5 document in UTF-8: a viewport meta tag, inline CSS, no script and
/// no external resources. Every interpolated value is HTML-escaped. A GET must never spend the code (mail
/// scanners open links), so the pages that change something (``confirmEmail(locale:app:email:formAction:hidden:)``,
/// ``resetPassword(locale:app:email:formAction:hidden:error:)``) only show a form that the person submits.
///
/// `locale` is a list of candidate tags, most preferred first (e.g. the `lang` parameter, then
/// `Accept-Language`); pages come in the same locales as ``EmailTemplates/builtIn``, English otherwise.
/// URLs (`continueURL`, `formAction`) must be `http:` or `https:` URLs or absolute paths; any other URL is
/// treated as absent.
package enum ActionPage {
    /// A problem with what was submitted in the password form, shown above it.
    package enum FormError: Sendable, Equatable {
        /// The password was refused as too weak (Firebase's `WEAK_PASSWORD`).
        case weakPassword
        /// The password misses these rules of the project's enforced password policy
        /// (`PASSWORD_DOES_NOT_MEET_REQUIREMENTS`).
        case unmetRequirements([PasswordRequirement])
    }

    /// What a completed action did.
    package enum Outcome: Sendable, Equatable, CaseIterable {
        /// `mode=verifyEmail` succeeded.
        case emailVerified
        /// `mode=resetPassword` succeeded.
        case passwordChanged
        /// `mode=verifyAndChangeEmail` succeeded: the account now has the new address.
        case emailChanged
    }

    /// Why a link cannot be acted on.
    package enum Failure: Sendable, Equatable, CaseIterable {
        /// The code is unknown or was already used.
        case invalidLink
        /// The code expired.
        case expiredLink
        /// The link is incomplete: no code, or a missing or unknown `mode`.
        case badRequest
    }

    /// The page for `mode=signIn`: says the link signs the person in to `app`, with a "Continue" button to
    /// `continueURL` (built by the caller, carrying the code), or, when there is none, asks them to open
    /// the link on the device where they asked for it.
    package static func signIn(locale: [String], app: String, continueURL: String?) -> String {
        let (tag, words) = ActionPageStrings.negotiate(locale)
        let title = phrase(words.signInTitle, app: app)
        var body = paragraph(phrase(words.signInBody, app: app))
        if let url = continueURL.flatMap(safeURL) {
            body += button(href: url, label: phrase(words.continueButton, app: app))
        } else {
            body += paragraph(phrase(words.signInElsewhere, app: app))
        }
        return document(locale: tag, app: app, title: title, body: body)
    }

    /// The page for `mode=verifyEmail`: asks to confirm `email` for `app` with a button that POSTs
    /// `hidden` to `formAction`.
    package static func confirmEmail(
        locale: [String], app: String, email: String, formAction: String, hidden: [(name: String, value: String)]
    ) -> String {
        let (tag, words) = ActionPageStrings.negotiate(locale)
        let body =
            paragraph(phrase(words.confirmBody, app: app, email: email))
            + form(action: formAction, hidden: hidden, fields: "", submit: phrase(words.confirmButton, app: app))
        return document(locale: tag, app: app, title: phrase(words.confirmTitle, app: app), body: body)
    }

    /// The page for `mode=resetPassword`: one new-password field (`newPassword`) that POSTs with `hidden` to
    /// `formAction`, and `error`, if any, above it. `rules` are the project's enforced password policy (its length
    /// bounds and character classes), listed under the field in the reader's language and mirrored in the field's
    /// `minlength`/`maxlength`; without them the hint is Firebase's own minimum of 6 characters.
    package static func resetPassword(
        locale: [String], app: String, email: String, formAction: String, hidden: [(name: String, value: String)], error: FormError?,
        rules: [PasswordRequirement] = []
    ) -> String {
        let (tag, words) = ActionPageStrings.negotiate(locale)
        var body = paragraph(phrase(words.resetBody, app: app, email: email))
        var describedBy = "password-hint"
        if let error {
            let message: String
            switch error {
            case .weakPassword:
                message = phrase(words.weakPassword, app: app)
            case .unmetRequirements(let missed):
                message = ruleList(words.passwordMissing, missed, words)
            }
            body += "<div class=\"error\" id=\"password-error\" role=\"alert\">\(message)</div>\n"
            describedBy += " password-error"
        }
        let hint = rules.isEmpty ? phrase(words.passwordHint, app: app) : ruleList(words.passwordNeeds, rules, words)
        var minimum = 6
        var maximum: Int?
        for rule in rules {
            if case .minLength(let n) = rule { minimum = n }
            if case .maxLength(let n) = rule { maximum = n }
        }
        let fields = """
            <input type="text" autocomplete="username" value="\(HTMLEscaping.escape(email))" readonly hidden>
            <label for="newPassword">\(phrase(words.newPassword, app: app))</label>
            <input id="newPassword" name="newPassword" type="password" minlength="\(minimum)"\(maximum.map { " maxlength=\"\($0)\"" } ?? "") \
            required autocomplete="new-password" aria-describedby="\(describedBy)"\(error == nil ? "" : " aria-invalid=\"true\" autofocus")>
            <div class="hint" id="password-hint">\(hint)</div>

            """
        body += form(action: formAction, hidden: hidden, fields: fields, submit: phrase(words.saveButton, app: app))
        return document(locale: tag, app: app, title: phrase(words.resetTitle, app: app), body: body)
    }

    /// A lead-in and a list of rules, escaped.
    private static func ruleList(_ lead: String, _ rules: [PasswordRequirement], _ words: ActionPageStrings) -> String {
        "<p>\(HTMLEscaping.escape(lead))</p><ul>" + rules.map { "<li>\(HTMLEscaping.escape(words.phrase($0)))</li>" }.joined() + "</ul>"
    }

    /// The page after a completed action, with a "Continue" button to `continueURL` when there is one.
    package static func done(locale: [String], app: String, outcome: Outcome, continueURL: String?) -> String {
        let (tag, words) = ActionPageStrings.negotiate(locale)
        let (title, text) =
            switch outcome {
            case .emailVerified: (words.verifiedTitle, words.verifiedBody)
            case .passwordChanged: (words.changedTitle, words.changedBody)
            case .emailChanged:
                ActionPageStrings.emailChanged[tag] ?? ActionPageStrings.emailChanged[LocaleNegotiation.fallback]
                    ?? (words.verifiedTitle, words.verifiedBody)
            }
        var body = paragraph(phrase(text, app: app))
        if let url = continueURL.flatMap(safeURL) {
            body += button(href: url, label: phrase(words.continueButton, app: app))
        }
        return document(locale: tag, app: app, title: phrase(title, app: app), body: body)
    }

    /// The page for a link that cannot be acted on.
    package static func failure(locale: [String], app: String, reason: Failure) -> String {
        let (tag, words) = ActionPageStrings.negotiate(locale)
        let (title, text) =
            switch reason {
            case .invalidLink: (words.invalidTitle, words.invalidBody)
            case .expiredLink: (words.expiredTitle, words.expiredBody)
            case .badRequest: (words.badRequestTitle, words.badRequestBody)
            }
        return document(locale: tag, app: app, title: phrase(title, app: app), body: paragraph(phrase(text, app: app)))
    }
}
