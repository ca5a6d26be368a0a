import FlintCore
import FlintServerTestSupport
import FlintStore
import FlintTesting
import FlintTexts
import HTTPTypes
import Testing

@testable import FlintConsole
@testable import FlintServer

@Suite("The web console's templates page")
struct ConsoleTemplatesTests {
    /// The built-in French sign-in email.
    static let french = EmailTemplates.builtIn.templates["fr"]![.signIn]!

    /// The editor's form for the French sign-in email with `subject` (the bodies as built in, with a browser's CR LF).
    static func frenchForm(_ op: ConsoleOperator, subject: String = french.subject, html: String = french.html) -> [String: String] {
        [
            "csrf": op.csrf, "locale": "fr", "template": "email.EMAIL_SIGNIN", "subject": subject,
            "text": french.text.replacing("\n", with: "\r\n"), "html": html,
        ]
    }

    /// The template overrides a config shows, `nil` when there are none.
    static func overrides(_ config: JSONValue) -> JSONValue? {
        config["flint"]?["emailTemplates"] ?? config["flint"]?["smsTemplates"]
    }

    @Test("the page is in the navigation, shows every locale and text, and opens a text with its parts and preview")
    func page() async throws {
        try await withConsoleOperator { api, op in
            let page = try await api.console(.get, "/console/templates?locale=FR&template=email.EMAIL_SIGNIN", cookie: op.cookie)
            #expect(page.status == .ok)
            #expect(page.text.contains(#"<a href="/console/templates" aria-current="page">Templates</a>"#))
            #expect(page.headers[.contentSecurityPolicy]?.contains("script-src 'self'") == true)
            #expect(page.text.contains(#"<script src="/console/templates.js" defer></script>"#))
            #expect(page.text.contains("Email: sign-in link · fr") && page.text.contains(#"<th scope="row">zh-TW</th>"#))
            #expect(page.text.contains(#"id="subject-state">built-in</span>"#))
            #expect(page.text.contains(#"<input id="subject" name="subject" value=""#))
            #expect(
                page.text.contains(#"<iframe class="email" id="preview-html" title="HTML part of the email" sandbox srcdoc="&lt;!DOCTYPE html&gt;"#))
            #expect(page.text.contains("demo-flint"), "the preview fills {app}")
            let script = try await api.console(.get, "/console/templates.js", cookie: op.cookie)
            #expect(script.status == .ok && script.headers[.contentType] == "text/javascript; charset=utf-8")
            #expect(script.text.contains("/console/templates/preview"))
            let other = try await api.console(.get, "/console/settings", cookie: op.cookie)
            #expect(other.headers[.contentSecurityPolicy]?.contains("script-src 'none'") == true, "other pages still run no script")
            let bad = try await api.console(.get, "/console/templates?locale=f&template=sms.signIn", cookie: op.cookie)
            #expect(bad.status == .badRequest && bad.text.contains(#"id="pick-locale-error""#))
        }
    }

    @Test("the preview renders the edited parts with sample values, escaped in a sandboxed frame, and names a refusal")
    func preview() async throws {
        try await withConsoleOperator { api, op in
            var form = Self.frenchForm(op, subject: "Bonjour {app}", html: #"<p onclick="x()">{link} "quoted" & {email}</p>"#)
            form["fragment"] = "1"
            let fragment = try await api.console(.post, "/console/templates/preview", form: form, cookie: op.cookie)
            #expect(fragment.status == .ok && !fragment.text.contains("<html") && !fragment.text.contains("<h1>"))
            #expect(fragment.text.contains(#"<dd id="preview-subject">Bonjour demo-flint</dd>"#))
            #expect(fragment.text.contains(#"sandbox srcdoc="&lt;p onclick=&quot;x()&quot;&gt;http"#), "\(fragment.text)")
            #expect(fragment.text.contains("user@example.com") && fragment.text.contains("oobCode=SAMPLE-CODE"))
            #expect(!fragment.text.contains("preview-error"))

            form["html"] = "<p>no link</p>"
            let refused = try await api.console(.post, "/console/templates/preview", form: form, cookie: op.cookie)
            #expect(refused.text.contains("Saving this would be refused: email template fr.EMAIL_SIGNIN.html must contain {link}"))

            form["fragment"] = nil
            let page = try await api.console(.post, "/console/templates/preview", form: form, cookie: op.cookie)
            #expect(page.status == .ok && page.text.contains("<h1>Templates</h1>") && page.text.contains("&lt;p&gt;no link&lt;/p&gt;</textarea>"))
            #expect(page.text.contains(#"<p class="error" id="html-error" role="alert">email template fr.EMAIL_SIGNIN.html must contain {link}</p>"#))

            let sms = try await api.console(
                .post, "/console/templates/preview",
                form: ["csrf": op.csrf, "locale": "en", "template": "sms.mfaSignIn", "text": "{code} for {app}", "fragment": "1"], cookie: op.cookie)
            #expect(sms.text.contains(#"<p class="sms" id="preview-sms">123456 for demo-flint</p>"#), "\(sms.text)")
            #expect(sms.text.contains("21 characters: 1 SMS segment(s) in GSM-7"))
            #expect(Self.overrides(try await api.admin(.get, Path.config).json) == nil, "a preview saves nothing")
        }
    }

    @Test("a save stores only the parts that differ from the built-in text, audited as CONFIG_CHANGED by the operator")
    func save() async throws {
        try await withConsoleOperator { api, op in
            let reply = try await api.console(.post, "/console/templates", form: Self.frenchForm(op, subject: "Lien pour {app}"), cookie: op.cookie)
            #expect(reply.status == .seeOther, "\(reply.text)")
            #expect(reply.headers[.location] == "/console/templates?locale=fr&template=email.EMAIL_SIGNIN&saved=1#editor")
            let config = try await api.admin(.get, Path.config)
            #expect(config["flint"]?["emailTemplates"] == ["fr": ["EMAIL_SIGNIN": ["subject": "Lien pour {app}"]]], "\(config.text)")
            let event = try #require(try await api.auditEvents("kind=CONFIG_CHANGED").first)
            #expect(event["actor"] == "ops@example.com" && event["detail"] == ["updateMask": ["flint.emailTemplates"]])
            let page = try await api.console(.get, "/console/templates?locale=fr&template=email.EMAIL_SIGNIN&saved=1", cookie: op.cookie)
            #expect(page.text.contains("Saved.") && page.text.contains(#"id="subject-state">overridden</span>"#))
            #expect(page.text.contains(#"id="text-state">built-in</span>"#) && page.text.contains("Reset Subject to built-in"))

            let sms = try await api.console(
                .post, "/console/templates",
                form: ["csrf": op.csrf, "locale": "nl", "template": "sms.signIn", "text": "{code} is je code\r\nvoor {app}"],
                cookie: op.cookie)
            #expect(sms.status == .seeOther, "\(sms.text)")
            #expect(try await api.admin(.get, Path.config)["flint"]?["smsTemplates"] == ["nl": ["signIn": "{code} is je code\nvoor {app}"]])
            _ = try await api.sendCode("+16505550104", headers: [HTTPField.Name("X-Firebase-Locale")!: "nl"])
            let code = try await api.pendingCode(for: "+16505550104")
            let sent = try await api.outbox().last { $0["to"]?.stringValue == "+16505550104" }
            #expect(sent?["body"]?.stringValue == "\(code) is je code\nvoor demo-flint")
        }
    }

    @Test("a refused save shows the config's error beside its part, keeps the edits and changes nothing")
    func refusedSave() async throws {
        try await withConsoleOperator { api, op in
            let reply = try await api.console(.post, "/console/templates", form: Self.frenchForm(op, html: "<p>sans lien</p>"), cookie: op.cookie)
            #expect(reply.status == .badRequest)
            #expect(reply.text.contains(#"aria-invalid="true" aria-describedby="html-error""#))
            #expect(
                reply.text.contains(#"<p class="error" id="html-error" role="alert">email template fr.EMAIL_SIGNIN.html must contain {link}</p>"#))
            #expect(reply.text.contains("&lt;p&gt;sans lien&lt;/p&gt;</textarea>"))
            let sms = try await api.console(
                .post, "/console/templates", form: ["csrf": op.csrf, "locale": "en", "template": "sms.signIn", "text": "no code"], cookie: op.cookie)
            #expect(sms.text.contains(#"<p class="error" id="text-error" role="alert">SMS template en.signIn must contain {code}</p>"#))
            #expect(Self.overrides(try await api.admin(.get, Path.config).json) == nil)
            #expect(try await api.auditEvents("kind=CONFIG_CHANGED").isEmpty)
        }
    }

    @Test("a part, then the whole text, is reset to the built-in text")
    func reset() async throws {
        try await withConsoleOperator { api, op in
            var form = Self.frenchForm(op, subject: "Lien pour {app}")
            form["text"] = "Ouvrez {link}"
            _ = try await api.console(.post, "/console/templates", form: form, cookie: op.cookie)
            let choice = ["csrf": op.csrf, "locale": "fr", "template": "email.EMAIL_SIGNIN"]
            let part = try await api.console(.post, "/console/templates", form: choice.merging(["reset": "subject"]) { $1 }, cookie: op.cookie)
            #expect(part.status == .seeOther)
            #expect(try await api.admin(.get, Path.config)["flint"]?["emailTemplates"] == ["fr": ["EMAIL_SIGNIN": ["text": "Ouvrez {link}"]]])
            let all = try await api.console(.post, "/console/templates", form: choice.merging(["reset": "all"]) { $1 }, cookie: op.cookie)
            #expect(all.status == .seeOther)
            #expect(try await api.admin(.get, Path.config)["flint"]?["emailTemplates"] == nil)
            let page = try await api.console(.get, "/console/templates?locale=fr&template=email.EMAIL_SIGNIN", cookie: op.cookie)
            #expect(page.text.contains(#"id="text-state">built-in</span>"#) && !page.text.contains("Reset this text"))
        }
    }

    @Test("a locale without built-in texts starts from the English text, and its first save stores every part")
    func newLocale() async throws {
        try await withConsoleOperator { api, op in
            let page = try await api.console(.get, "/console/templates?locale=nl&template=email.PASSWORD_RESET", cookie: op.cookie)
            #expect(page.text.contains(#"id="subject-state">English built-in</span>"#) && page.text.contains("Flint has no built-in nl text"))
            let english = try #require(EmailTemplates.builtIn.templates["en"]?[.passwordReset])
            let form = [
                "csrf": op.csrf, "locale": "nl", "template": "email.PASSWORD_RESET", "subject": "Nieuw wachtwoord voor {app}", "text": english.text,
                "html": english.html,
            ]
            #expect(try await api.console(.post, "/console/templates", form: form, cookie: op.cookie).status == .seeOther)
            let stored = try await api.admin(.get, Path.config)["flint"]?["emailTemplates"]?["nl"]?["PASSWORD_RESET"]
            #expect(stored == ["subject": "Nieuw wachtwoord voor {app}", "text": .string(english.text), "html": .string(english.html)])
            let overview = try await api.console(.get, "/console/templates", cookie: op.cookie)
            #expect(overview.text.contains(#"<th scope="row">nl</th>"#))
        }
    }

    @Test("an override stored under another spelling of the locale is shown, and replaced under the canonical one")
    func otherSpelling() async throws {
        try await withConsoleOperator { api, op in
            let patched = try await api.admin(
                .patch, Path.config + "?updateMask=flint.smsTemplates", body: #"{"flint":{"smsTemplates":{"PT_br":{"signIn":"{code} ok"}}}}"#)
            #expect(patched.status == .ok, "\(patched.text)")
            let page = try await api.console(.get, "/console/templates?locale=pt-br&template=sms.signIn", cookie: op.cookie)
            #expect(page.text.contains(#"id="text-state">overridden</span>"#) && page.text.contains("{code} ok</textarea>"))
            let form = ["csrf": op.csrf, "locale": "pt-BR", "template": "sms.signIn", "text": "{code} é seu código"]
            #expect(try await api.console(.post, "/console/templates", form: form, cookie: op.cookie).status == .seeOther)
            #expect(try await api.admin(.get, Path.config)["flint"]?["smsTemplates"] == ["pt-BR": ["signIn": "{code} é seu código"]])
        }
    }

    @Test("a body as large as the config allows (100,000 bytes, far past other console forms' 64 KiB once encoded) is saved")
    func largeBody() async throws {
        try await withConsoleOperator { api, op in
            let html = "<p>{link}</p>" + String(repeating: "<b>é</b>", count: 9_000)
            #expect(html.utf8.count < 100_000)
            let reply = try await api.console(.post, "/console/templates", form: Self.frenchForm(op, html: html), cookie: op.cookie)
            #expect(reply.status == .seeOther, "\(reply.status)")
            #expect(try await api.admin(.get, Path.config)["flint"]?["emailTemplates"]?["fr"]?["EMAIL_SIGNIN"]?["html"] == .string(html))
        }
    }

    @Test("a read-only operator reads and previews but cannot save")
    func readOnly() async throws {
        try await withConsoleOperator(role: .read) { api, op in
            let page = try await api.console(.get, "/console/templates?locale=fr&template=email.EMAIL_SIGNIN", cookie: op.cookie)
            #expect(page.status == .ok && page.text.contains(#"name="subject" value=""#) && page.text.contains(" readonly"))
            #expect(!page.text.contains("Save template"))
            let save = try await api.console(.post, "/console/templates", form: Self.frenchForm(op, subject: "X {app}"), cookie: op.cookie)
            #expect(save.status == .forbidden)
            var form = Self.frenchForm(op)
            form["fragment"] = "1"
            #expect(try await api.console(.post, "/console/templates/preview", form: form, cookie: op.cookie).status == .ok)
            #expect(Self.overrides(try await api.admin(.get, Path.config).json) == nil)
        }
    }

    @Test("a save or preview without the CSRF token is refused", arguments: ["/console/templates", "/console/templates/preview"])
    func withoutCSRF(_ path: String) async throws {
        try await withConsoleOperator { api, op in
            var form = Self.frenchForm(op, subject: "X {app}")
            form["csrf"] = nil
            let reply = try await api.console(.post, path, form: form, cookie: op.cookie)
            #expect(reply.status == .forbidden && reply.text.contains("stale"))
            #expect(Self.overrides(try await api.admin(.get, Path.config).json) == nil)
        }
    }
}
