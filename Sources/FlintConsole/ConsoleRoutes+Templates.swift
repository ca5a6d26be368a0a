import FlintCore
import FlintServer
import FlintStore
import FlintTexts
import Hummingbird

/// The templates page: the email and SMS texts by locale, each part built-in or overridden, edited beside a preview
/// rendered with sample values. A save changes `flint.emailTemplates` or `flint.smsTemplates` through the admin config
/// API's own update (with that path as its `updateMask`), so it is checked, stored and audited (`CONFIG_CHANGED`, the
/// operator as actor) as a script's change would be, and a refusal is shown beside the part it names.
extension ConsoleRoutes {
    /// The most a templates form may send: three parts of up to 100,000 bytes each, percent-encoded.
    static let templatesFormBytes = 1024 * 1024

    /// `GET /console/templates?locale=…&template=…`: the overview and the chosen text's editor (English sign-in email
    /// when none is chosen).
    func templates(_ request: Request, context: FlintRequestContext) async throws -> Response {
        guard let caller = try await caller(request) else { return Self.toSignIn }
        let locale = ConsoleForm.query("locale", in: request) ?? LocaleNegotiation.fallback
        let id = ConsoleForm.query("template", in: request) ?? ConsoleTemplateChoice.kinds[0].id
        guard let choice = ConsoleTemplateChoice(locale: locale, id: id) else {
            let message = "\(locale) is not a language tag (such as fr or pt-BR), or \(id) is no template."
            let view = templatesView(choice: nil)
            return templatesPage(view, caller: caller, extra: ["pickError": message, "locale": locale], status: .badRequest)
        }
        let notice = ConsoleForm.query("saved", in: request) != nil ? ["notice": "Saved."] : [:]
        return templatesPage(templatesView(choice: choice), caller: caller, extra: notice)
    }

    /// `POST /console/templates`: saves the edited parts (those equal to the locale's built-in text stay built-in), or
    /// with `reset` (a part's name, or `all`) takes that override out, back to the built-in text.
    func saveTemplate(_ request: Request, context: FlintRequestContext) async throws -> Response {
        try await change(request, limit: Self.templatesFormBytes) { caller, form in
            guard let choice = ConsoleTemplateChoice(locale: form["locale"] ?? "", id: form["template"] ?? "") else {
                return pages.message("Refused", "Unknown locale or template.", caller: caller, status: .badRequest)
            }
            let config = flow.node.config.current
            var edited: [String: String]?
            let overrides: JSONValue?
            if let reset = form["reset"] {
                var parts = choice.overrides(in: config)
                if reset == "all" { parts = [:] } else { parts[reset] = nil }
                overrides = choice.replacing(with: parts, in: config)
            } else {
                edited = Self.parts(of: choice, in: form)
                overrides = choice.replacing(with: edited ?? [:], in: config)
            }
            do {
                try await updateConfig(choice.patch(overrides), mask: [choice.mask], caller: caller, context: context)
            } catch let error as AuthError {
                let message = error.detail ?? error.message
                var view = templatesView(choice: choice, edited: edited)
                view.errors = [Self.part(for: message, of: choice): message]
                return templatesPage(view, caller: caller, status: .badRequest)
            }
            return ConsolePages.redirect("/console/templates?locale=\(choice.locale)&template=\(choice.kind.id)&saved=1#editor")
        }
    }

    /// `POST /console/templates/preview`: the edited parts rendered with sample values; with `fragment=1` (the page's
    /// script) the preview alone, else (the Preview button without script) the whole page with the edits kept. It
    /// changes nothing, so a read-only operator may preview too; the CSRF token is checked as on every POST.
    func previewTemplate(_ request: Request, context: FlintRequestContext) async throws -> Response {
        guard let caller = try await caller(request) else { return Self.toSignIn }
        guard let form = try await checkedForm(request, csrf: caller.csrf, limit: Self.templatesFormBytes) else { return csrfRefused(caller) }
        guard let choice = ConsoleTemplateChoice(locale: form["locale"] ?? "", id: form["template"] ?? "") else {
            return pages.message("Refused", "Unknown locale or template.", caller: caller, status: .badRequest)
        }
        var view = templatesView(choice: choice, edited: Self.parts(of: choice, in: form))
        let preview = view.preview
        if form["fragment"] == "1" { return pages.fragment("templatePreview", preview) }
        if let error = preview["error"] as? String { view.errors = [Self.part(for: error, of: choice): error] }
        return templatesPage(view, caller: caller)
    }

    /// The page for `view`, with its preview rendered in.
    private func templatesPage(
        _ view: ConsoleTemplatesView, caller: ConsoleCaller, extra: [String: Any] = [:], status: HTTPResponse.Status = .ok
    ) -> Response {
        var data = view.data.merging(extra) { $1 }
        data["preview"] = pages.render("templatePreview", view.preview)
        return pages.page("templates", title: "Templates", data, caller: caller, status: status, policy: ConsolePages.templatesPolicy)
    }

    private func templatesView(choice: ConsoleTemplateChoice?, edited: [String: String]? = nil) -> ConsoleTemplatesView {
        ConsoleTemplatesView(
            config: flow.node.config.current, choice: choice, edited: edited, appName: flow.node.appName,
            baseURL: flow.node.settings.publicBaseURL)
    }

    /// The parts of `choice` in a submitted form, with the CR LF line breaks browsers send from a `<textarea>` as LF.
    static func parts(of choice: ConsoleTemplateChoice, in form: [String: String]) -> [String: String] {
        Dictionary(uniqueKeysWithValues: choice.parts.map { ($0, (form[$0] ?? "").replacing("\r\n", with: "\n")) })
    }

    /// The part a refusal's detail names (`… fr.EMAIL_SIGNIN.html must contain {link}`), else the first one.
    static func part(for detail: String, of choice: ConsoleTemplateChoice) -> String {
        choice.parts.first { detail.contains(".\(choice.kind.name).\($0)") } ?? choice.parts[0]
    }
}
