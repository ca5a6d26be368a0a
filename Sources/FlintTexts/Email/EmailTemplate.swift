/// Why an email with an action link is sent (Firebase's `requestType` values).
package enum EmailAction: String, Sendable, CaseIterable, Codable {
    /// Passwordless sign-in with an email link (`sendOobCode` with `EMAIL_SIGNIN`).
    case signIn = "EMAIL_SIGNIN"
    /// Confirming that the address belongs to the account (`VERIFY_EMAIL`).
    case verifyEmail = "VERIFY_EMAIL"
    /// Choosing a new password (`PASSWORD_RESET`).
    case passwordReset = "PASSWORD_RESET"
    /// Confirming a new address before it replaces the account's email (`VERIFY_AND_CHANGE_EMAIL`).
    case verifyAndChangeEmail = "VERIFY_AND_CHANGE_EMAIL"
    /// Sent to the old address when an account's email changes: following it restores that address
    /// (`RECOVER_EMAIL`), the way an owner takes a hijacked account back.
    case recoverEmail = "RECOVER_EMAIL"
}

/// One email template: a subject, a plain text body and an HTML body.
///
/// All three may use the placeholders `{app}` (the app or project name), `{link}` (the action link)
/// and `{email}` (the recipient's address); see ``EmailTemplates/render(action:locale:app:link:email:)``
/// for how each is filled.
package struct EmailTemplate: Sendable, Equatable, Codable {
    /// The subject line (a single line).
    package var subject: String
    /// The `text/plain` body.
    package var text: String
    /// The `text/html` body: a complete document, or a fragment the mail client will wrap.
    package var html: String

    /// A template with the given parts.
    package init(subject: String, text: String, html: String) {
        self.subject = subject
        self.text = text
        self.html = html
    }
}

/// A rendered email, ready to be handed to a mail transport.
package struct EmailContent: Sendable, Equatable {
    /// The subject line, without line breaks.
    package var subject: String
    /// The `text/plain` body.
    package var text: String
    /// The `text/html` body.
    package var html: String
    /// The canonical tag of the locale the email was rendered in (e.g. `fr`, `zh-TW`).
    package var locale: String
}
