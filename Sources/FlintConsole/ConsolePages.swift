import FlintCore
import FlintServer
import FlintStore
import HTTPTypes
import Hummingbird
import Mustache
import NIOCore

/// Renders console pages into whole HTML answers: the page's template inside the layout, with its
/// Content-Security-Policy. ``ConsoleMiddleware`` adds the headers every console answer carries (``headers``).
struct ConsolePages: Sendable {
    let library: MustacheLibrary
    let project: String
    let devMode: Bool

    /// `default-src 'self'` and nothing inline: the console's pages run no script and load only its own stylesheet.
    static let contentSecurityPolicy =
        "default-src 'self'; script-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

    /// The templates page's policy: its live preview's script, a file Flint serves (``ConsoleScript``, never inline
    /// script), and inline styles, which the emails' HTML uses (the preview shows it in a sandboxed `srcdoc` frame,
    /// which inherits the page's policy). The page's own markup has no inline style, and every value in it is escaped;
    /// images still come only from the console or `data:` URLs, so an email's remote images are not fetched.
    static let templatesPolicy =
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; form-action 'self'; "
        + "frame-ancestors 'none'; base-uri 'none'"

    /// An import's page: the default policy, and the console's own script (``ConsoleScript``), which follows the job.
    static let scriptPolicy =
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

    /// The console's sections, in the order of its navigation: the dev outbox's after Deliveries in dev mode only.
    static func sections(devMode: Bool) -> [(href: String, label: String)] {
        var sections = [
            ("/console/dashboard", "Dashboard"), ("/console/users", "Users"), ("/console/tenants", "Tenants"), ("/console/deliveries", "Deliveries"),
            ("/console/security", "Security"), ("/console/keys", "Keys"), ("/console/webhooks", "Webhooks"), ("/console/settings", "Settings"),
            ("/console/templates", "Templates"),
        ]
        if devMode { sections.insert(("/console/outbox", "Outbox"), at: 4) }
        return sections
    }

    init(project: String, devMode: Bool) throws {
        (library, self.project, self.devMode) = (try ConsoleTemplates.library(), project, devMode)
    }

    /// The page `template` titled `title` with `data`; `caller` (when signed in) fills the navigation and sign-out form.
    /// `policy` is its Content-Security-Policy.
    func page(
        _ template: String, title: String, _ data: [String: Any] = [:], caller: ConsoleCaller? = nil, status: HTTPResponse.Status = .ok,
        cookie: String? = nil, policy: String = contentSecurityPolicy
    ) -> Response {
        var data = data
        data["devMode"] = devMode
        if let caller {
            data["csrf"] = data["csrf"] ?? caller.csrf
            data["canWrite"] = caller.canWrite
        }
        let tenant = ConsoleTenant.current
        let body = library.render(data, withTemplate: template) ?? ""
        var frame: [String: Any] = ["title": title, "project": project, "body": tenant?.scopedLinks(body) ?? body, "devMode": devMode]
        if let caller {
            // An operator limited to tenants without the project sees the sections that act in a tenant.
            let sections = Self.sections(devMode: devMode).filter {
                caller.operatorRecord.mayUse(.default) || ConsoleTenant.isScoped($0.href[...]) || $0.href == "/console/tenants"
            }
            let nav: [[String: Any]] = sections.map {
                [
                    "href": tenant?.scoped($0.href[...], html: false) ?? $0.href, "label": $0.label,
                    "current": $0.label == title.split(separator: " ").first.map(String.init),
                ]
            }
            frame["caller"] = ["email": caller.email, "role": caller.operatorRecord.role.rawValue, "csrf": caller.csrf, "nav": nav] as [String: Any]
            if let tenant {
                frame["tenant"] = ["label": tenant.label, "next": Self.section(of: title)] as [String: Any]
            }
        }
        let html = library.render(frame, withTemplate: "layout") ?? ""
        var headers: HTTPFields = [.contentType: "text/html; charset=utf-8", .contentSecurityPolicy: policy]
        if let cookie { headers[.setCookie] = cookie }
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }

    /// The template `template` rendered with `data`, to put into a page.
    func render(_ template: String, _ data: [String: Any]) -> String {
        library.render(data, withTemplate: template) ?? ""
    }

    /// A part of a page (the template `template` with `data`) alone, for the page's script to put in place.
    func fragment(_ template: String, _ data: [String: Any]) -> Response {
        Response(
            status: .ok, headers: [.contentType: "text/html; charset=utf-8"],
            body: ResponseBody(
                byteBuffer: ByteBuffer(string: ConsoleTenant.current.map { $0.scopedLinks(render(template, data)) } ?? render(template, data))))
    }

    /// A message page (an error when `error`), with a link onwards.
    func message(
        _ title: String, _ text: String, error: Bool = true, link: (href: String, label: String)? = nil, caller: ConsoleCaller? = nil,
        status: HTTPResponse.Status
    ) -> Response {
        var data: [String: Any] = ["text": text, "error": error]
        if let link { data["link"] = ["href": link.href, "label": link.label] }
        return page("message", title: title, data, caller: caller, status: status)
    }

    /// The tenant page a title's section leads to after a tenant is picked: the users list, the import page, the audit log
    /// or the identity providers' list (the tenant pages titled as settings or tenants are the providers' pages).
    static func section(of title: String) -> String {
        if title.hasPrefix("Security") { return "/console/security" }
        if title.hasPrefix("Users — import") { return "/console/import" }
        return ["Settings", "Tenants", "Provider"].contains { title.hasPrefix($0) } ? "/console/providers" : "/console/users"
    }

    /// `303 See Other` to `location` (in the page's tenant, for a tenant page), setting `cookie` when given.
    static func redirect(_ location: String, cookie: String? = nil) -> Response {
        var headers: HTTPFields = [.location: ConsoleTenant.current?.scoped(location[...], html: false) ?? location]
        if let cookie { headers[.setCookie] = cookie }
        return Response(status: .seeOther, headers: headers)
    }

    /// The stylesheet.
    static func stylesheet() -> Response {
        Response(
            status: .ok, headers: [.contentType: "text/css; charset=utf-8", .cacheControl: "max-age=300"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: ConsoleStylesheet.text)))
    }

    /// The templates page's script.
    static func script() -> Response {
        Response(
            status: .ok, headers: [.contentType: "text/javascript; charset=utf-8", .cacheControl: "max-age=300"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: ConsoleScript.text)))
    }

    /// What every console answer carries unless its handler set the field itself (``ConsoleMiddleware``): a strict
    /// Content-Security-Policy with no inline script or style, no caching (the stylesheet and script are cached for
    /// five minutes), no sniffing, no framing, no referrer, since setup links carry their token in the URL.
    static let headers: HTTPFields = {
        var fields: HTTPFields = [.cacheControl: "no-store"]
        fields[.contentSecurityPolicy] = contentSecurityPolicy
        fields[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
        fields[HTTPField.Name("X-Frame-Options")!] = "DENY"
        fields[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        return fields
    }()
}
