/// The words of one locale's built-in emails; ``EmailTemplates/builtInTemplates`` lays them out.
struct EmailPhrases {
    /// The words that differ by action.
    struct ActionPhrases {
        /// The subject line.
        var subject: String
        /// What the email is for, ending by pointing at the link below.
        var intro: String
        /// The label of the button.
        var button: String
        /// "If you didn't ask for this, you can ignore this email."
        var ignore: String
    }

    /// The salutation line, or `""` where the language's emails go without one.
    var greeting: String
    /// Introduces the raw link under the button, for clients that block buttons.
    var copyLink: String
    /// Says the link expires and can be used once.
    var expiry: String
    /// The closing lines (`\n` separates lines).
    var signOff: String
    var signIn: ActionPhrases
    var verifyEmail: ActionPhrases
    var passwordReset: ActionPhrases
    /// The words of the email that confirms a new address (``EmailTemplates/builtInChangeEmailPhrases``).
    /// Empty in ``EmailTemplates/builtInPhrases``; filled from ``EmailTemplates/builtInChangeEmailPhrases``.
    var verifyAndChangeEmail = ActionPhrases(subject: "", intro: "", button: "", ignore: "")
    /// The words of the email to the old address after an email change (``EmailTemplates/builtInRecoverEmailPhrases``).
    var recoverEmail = ActionPhrases(subject: "", intro: "", button: "", ignore: "")

    subscript(action: EmailAction) -> ActionPhrases {
        switch action {
        case .signIn: signIn
        case .verifyEmail: verifyEmail
        case .passwordReset: passwordReset
        case .verifyAndChangeEmail: verifyAndChangeEmail
        case .recoverEmail: recoverEmail
        }
    }
}

extension EmailTemplates {
    /// The templates behind ``builtIn``, laid out from ``builtInPhrases``.
    static let builtInTemplates: [String: [EmailAction: EmailTemplate]] = {
        var all: [String: [EmailAction: EmailTemplate]] = [:]
        for (locale, phrases) in builtInPhrases {
            var phrases = phrases
            let change = builtInChangeEmailPhrases[locale]
            if let change { phrases.verifyAndChangeEmail = change }
            let recover = builtInRecoverEmailPhrases[locale]
            if let recover { phrases.recoverEmail = recover }
            for action in EmailAction.allCases
            where (action != .verifyAndChangeEmail || change != nil) && (action != .recoverEmail || recover != nil) {
                all[locale, default: [:]][action] = layout(phrases, action: action, locale: locale)
            }
        }
        return all
    }()

    /// One built-in template: the text body as short paragraphs, the HTML body as a single-column
    /// table layout with inline styles (what mail clients render reliably), a button-like link, the raw link
    /// again as text, and no external resources.
    static func layout(_ phrases: EmailPhrases, action: EmailAction, locale: String) -> EmailTemplate {
        let words = phrases[action]
        let paragraphs = [phrases.greeting, words.intro, "{link}", phrases.expiry, words.ignore, phrases.signOff]
        let text = paragraphs.filter { !$0.isEmpty }.joined(separator: "\n\n") + "\n"
        let direction = TextDirection(locale: locale)
        let font = "font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif"
        let greeting = phrases.greeting.isEmpty ? "" : "<p style=\"margin:0 0 16px;\">\(HTMLEscaping.escape(phrases.greeting))</p>\n"
        let html = """
            <!DOCTYPE html>
            <html lang="\(locale)" dir="\(direction.rawValue)">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(HTMLEscaping.escape(words.subject))</title>
            </head>
            <body style="margin:0;padding:0;background-color:#f4f5f7;">
            <table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background-color:#f4f5f7;">
            <tr><td align="center" style="padding:24px 12px;">
            <table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" dir="\(direction.rawValue)" \
            style="max-width:560px;background-color:#ffffff;border:1px solid #e1e4e8;border-radius:8px;">
            <tr><td style="padding:32px 28px;\(font);font-size:16px;line-height:24px;color:#1f2328;text-align:\(direction.startAlignment);">
            \(greeting)<p style="margin:0 0 24px;">\(HTMLEscaping.escape(words.intro))</p>
            <table role="presentation" cellpadding="0" cellspacing="0" border="0"><tr>
            <td style="border-radius:6px;background-color:#1a73e8;">\
            <a href="{link}" target="_blank" style="display:inline-block;padding:12px 24px;\(font);font-size:16px;font-weight:bold;\
            color:#ffffff;text-decoration:none;border-radius:6px;">\(HTMLEscaping.escape(words.button))</a></td>
            </tr></table>
            <p style="margin:24px 0 8px;font-size:14px;line-height:20px;color:#57606a;">\(HTMLEscaping.escape(phrases.copyLink))</p>
            <p style="margin:0 0 24px;font-size:14px;line-height:20px;word-break:break-all;">\
            <a href="{link}" target="_blank" dir="ltr" style="color:#1a73e8;">{link}</a></p>
            <p style="margin:0 0 16px;">\(HTMLEscaping.escape(phrases.expiry))</p>
            <p style="margin:0 0 16px;">\(HTMLEscaping.escape(words.ignore))</p>
            <p style="margin:0;">\(HTMLEscaping.escapeLines(phrases.signOff))</p>
            </td></tr></table>
            </td></tr></table>
            </body>
            </html>

            """
        return EmailTemplate(subject: words.subject, text: text, html: html)
    }
}
