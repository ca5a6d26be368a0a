import FlintCore
import FlintServer
import FlintTexts

/// A text of the templates page rendered with sample values, as it would be sent once saved: the config the save
/// would make renders it (so the preview and the delivery agree), and the error the save would meet is shown with it.
struct ConsoleTemplatePreview {
    /// The sample code an SMS preview shows.
    static let sampleCode = "123456"
    /// The sample recipient an email preview shows.
    static let sampleEmail = "user@example.com"

    let choice: ConsoleTemplateChoice
    /// The parts as edited (unsaved), or as stored.
    let parts: [String: String]
    /// The app's name (`{app}`).
    let appName: String
    /// The base of action links, for the sample `{link}`.
    let baseURL: String

    /// The sample action link: the action page's, with a code that opens nothing.
    var sampleLink: String {
        guard case .email(let action) = choice.kind else { return "" }
        return "\(baseURL)/__/auth/action?mode=\(ActionCodes.mode(of: action))&oobCode=SAMPLE-CODE&lang=\(choice.locale)"
    }

    /// The preview fragment's data: `email` (subject, text, html, locale) or `sms` (text, length in characters, SMS
    /// segments and their encoding), and `error`, the
    /// config's refusal of the parts when there is one.
    func data(config: ProjectConfig) -> [String: Any] {
        var data: [String: Any] = [:]
        var saved: ProjectConfig?
        do throws(AuthError) {
            saved = try config.applying(patch: choice.patch(choice.replacing(with: parts, in: config)), updateMask: [choice.mask])
        } catch {
            data["error"] = error.detail ?? error.message
        }
        switch choice.kind {
        case .email(let action):
            // Refused parts are still shown, rendered as written.
            let templates =
                saved?.emailTemplates
                ?? EmailTemplates([
                    choice.locale: [action: EmailTemplate(subject: parts["subject"] ?? "", text: parts["text"] ?? "", html: parts["html"] ?? "")]
                ])
            let email = templates.render(action: action, locale: [choice.locale], app: appName, link: sampleLink, email: Self.sampleEmail)
            data["email"] = ["subject": email.subject, "text": email.text, "html": email.html, "locale": email.locale]
        case .sms(let purpose):
            let templates = saved?.smsTemplates ?? SMSTemplates([choice.locale: [purpose: parts["text"] ?? ""]])
            let sms = templates.render(purpose: purpose, locale: [choice.locale], app: appName, code: Self.sampleCode)
            let segments = SMSSegments(sms.text)
            data["sms"] = [
                "text": sms.text, "length": sms.text.count, "locale": sms.locale, "segments": segments.count,
                "encoding": segments.encoding.rawValue,
            ]
        }
        return data
    }
}
