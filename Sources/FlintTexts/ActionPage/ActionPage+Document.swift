extension ActionPage {
    /// The page shell: head with inline CSS, the app name, the title and `body` (already escaped HTML). With
    /// `metaPolicy`, a `<meta>` Content-Security-Policy allowing no script; pages that run a script leave it out and
    /// rely on the response's header (a `<meta>` policy would apply too and block it).
    static func document(locale: String, app: String, title: String, body: String, metaPolicy: Bool = true) -> String {
        let policy =
            metaPolicy
            ? "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'\">\n" : ""
        return """
            <!DOCTYPE html>
            <html lang="\(HTMLEscaping.escape(locale))" dir="\(TextDirection(locale: locale).rawValue)">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="referrer" content="no-referrer">
            <meta name="robots" content="noindex, nofollow">
            \(policy)<title>\(title)</title>
            <style>\(stylesheet)</style>
            </head>
            <body>
            <main>
            <p class="app">\(HTMLEscaping.escape(app))</p>
            <h1>\(title)</h1>
            \(body)</main>
            </body>
            </html>

            """
    }

    /// A localized phrase, escaped, with `{app}` and `{email}` filled with escaped values (one pass).
    static func phrase(_ text: String, app: String, email: String = "") -> String {
        Placeholders.fill(HTMLEscaping.escape(text), values: ["app": HTMLEscaping.escape(app), "email": HTMLEscaping.escape(email)])
    }

    /// A paragraph around already escaped HTML.
    static func paragraph(_ html: String) -> String {
        "<p>\(html)</p>\n"
    }

    /// A link styled as the primary button; `href` is escaped here, `label` must be escaped already.
    static func button(href: String, label: String) -> String {
        "<p><a class=\"button\" href=\"\(HTMLEscaping.escape(href))\">\(label)</a></p>\n"
    }

    /// A POST form with `hidden` inputs, `fields` (escaped HTML) and one submit button. Without a safe
    /// `action` the form posts back to the page's own URL.
    static func form(action: String, hidden: [(name: String, value: String)], fields: String, submit: String) -> String {
        let target = safeURL(action).map { " action=\"\(HTMLEscaping.escape($0))\"" } ?? ""
        var html = "<form method=\"post\"\(target)>\n"
        for field in hidden {
            html += "<input type=\"hidden\" name=\"\(HTMLEscaping.escape(field.name))\" value=\"\(HTMLEscaping.escape(field.value))\">\n"
        }
        html += fields
        html += "<button class=\"button\" type=\"submit\">\(submit)</button>\n</form>\n"
        return html
    }

    /// `url` if it is an `http:` or `https:` URL or an absolute path, else `nil` (no `javascript:`, `data:`…).
    static func safeURL(_ url: String) -> String? {
        let lower = url.prefix(8).lowercased()
        return lower.hasPrefix("https://") || lower.hasPrefix("http://") || url.hasPrefix("/") ? url : nil
    }

    /// The page CSS: system fonts, one centred card, light and dark schemes.
    static let stylesheet = """

        :root{color-scheme:light dark}
        body{margin:0;padding:24px 16px;background:#f4f5f7;color:#1f2328;\
        font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif}
        main{box-sizing:border-box;max-width:440px;margin:8vh auto 0;padding:32px 28px;background:#fff;\
        border:1px solid #e1e4e8;border-radius:12px}
        .app{margin:0 0 8px;font-size:14px;color:#57606a}
        h1{margin:0 0 16px;font-size:22px;line-height:1.3}
        p{margin:0 0 16px}
        .button{display:block;box-sizing:border-box;width:100%;padding:12px 20px;border:0;border-radius:8px;\
        background:#1a73e8;color:#fff;font:inherit;font-weight:600;text-align:center;text-decoration:none;cursor:pointer}
        .button:focus-visible{outline:3px solid #8ab4f8;outline-offset:2px}
        label{display:block;margin:0 0 6px;font-weight:600}
        input[type=password]{box-sizing:border-box;width:100%;margin:0 0 6px;padding:10px 12px;border:1px solid #8c959f;\
        border-radius:8px;font:inherit}
        .hint{font-size:14px;color:#57606a}
        .error{margin:0 0 16px;padding:10px 12px;border-radius:8px;background:#ffebe9;color:#82071e}
        .hint{margin:0 0 16px}.hint p,.error p{margin:0 0 4px}.hint ul,.error ul{margin:0;padding-inline-start:20px}
        @media (prefers-color-scheme:dark){body{background:#0d1117;color:#e6edf3}main{background:#161b22;border-color:#30363d}\
        .app,.hint{color:#8d96a0}input[type=password]{background:#0d1117;color:#e6edf3;border-color:#30363d}\
        .error{background:#3d1418;color:#ffa198}}

        """
}
