import FlintCore
import FlintServer
import FlintStore
import Hummingbird

/// The tenant a console page acts in (issue 32): the project's own users (the default tenant) or a tenant's, chosen in
/// the page's URL (`?tenant=ID`; none for the project), so a link names its tenant and the back button keeps it. The
/// console's tenant pages (``ConsoleEndpoint/Scope/tenant``) run in it through ``UserConsole/inTenant(_:_:)``, as the
/// Admin SDKs' tenant paths do: every account read and change, import, export and audit event is the tenant's. Their
/// pages' links and forms keep it (``scopedLinks(_:)``), and a redirect from them too (``ConsolePages/redirect(_:cookie:)``).
struct ConsoleTenant: Sendable {
    let id: TenantID
    /// The tenant's display name (empty for the project).
    let displayName: String

    /// The tenant a page is rendered for, bound by ``ConsoleRoutes/scoped(_:_:)`` around the handlers of tenant pages.
    @TaskLocal static var current: ConsoleTenant? = nil

    /// The signed-in operator of the request in progress, once ``ConsoleRoutes/scoped(_:_:)`` read it (read once per
    /// request).
    @TaskLocal static var signedIn: ConsoleCaller? = nil

    /// The pages that act in a tenant, whose links and forms carry it: the users pages (with import and export), the
    /// audit log's and the OIDC and SAML providers' pages.
    static let paths = ["/console/users", "/console/new-user", "/console/import", "/console/export", "/console/security", "/console/providers"]

    /// The picker's label: the display name and ID, or the project.
    var label: String { id.isDefault ? "Project (default tenant)" : "\(displayName) (\(id.rawValue))" }

    /// Whether `path` (without its query) is one of a tenant's pages.
    static func isScoped(_ path: Substring) -> Bool {
        paths.contains { path == $0 || path.hasPrefix($0 + "/") }
    }

    /// `url` with this tenant in its query, when it is a tenant page's (`&amp;` as in an HTML attribute when `html`).
    func scoped(_ url: Substring, html: Bool) -> String {
        let (main, fragment) = url.firstIndex(of: "#").map { (url[..<$0], url[$0...]) } ?? (url, "")
        let path = main.firstIndex(of: "?").map { main[..<$0] } ?? main
        let named = ["?tenant=", "&tenant=", "&amp;tenant="].contains { main.contains($0) }
        guard !id.isDefault, Self.isScoped(path), !named else { return String(url) }
        let separator = main.contains("?") ? (html ? "&amp;" : "&") : "?"
        return String(main) + separator + "tenant=" + id.rawValue + fragment
    }

    /// A rendered page's HTML with this tenant in every link and form to a tenant page: `tenant=` added to `href` and
    /// `action` addresses, and a hidden `tenant` field in GET forms (a browser replaces a GET form's query). Tenant IDs
    /// are letters, digits and hyphens: nothing to escape.
    func scopedLinks(_ html: String) -> String {
        guard !id.isDefault else { return html }
        var out = ""
        out.reserveCapacity(html.utf8.count + 256)
        var rest = html[...]
        while let attribute = Self.nextAttribute(in: rest) {
            out += rest[..<attribute.value.lowerBound]
            let value = rest[attribute.value]
            out += scoped(value, html: true)
            rest = rest[attribute.value.upperBound...]
            // A GET form to a tenant page: its hidden field right after the form's tag.
            if attribute.isFormAction, Self.isScoped(value.prefix { $0 != "?" && $0 != "#" }), let close = rest.firstIndex(of: ">"),
                let open = html[..<attribute.value.lowerBound].lastIndex(of: "<")
            {
                out += rest[...close]
                rest = rest[rest.index(after: close)...]
                let tag = html[open..<close]
                if tag.hasPrefix("<form"), tag.contains(#"method="get""#) { out += #"<input type="hidden" name="tenant" value="\#(id.rawValue)">"# }
            }
        }
        return out + rest
    }

    /// The next `href="…"` or `action="…"` value in `text` (one pass: every `="` is looked at once).
    private static func nextAttribute(in text: Substring) -> (value: Range<Substring.Index>, isFormAction: Bool)? {
        var rest = text
        while let equals = rest.firstRange(of: #"=""#) {
            let name = text[..<equals.lowerBound]
            let (isHref, isAction) = (name.hasSuffix(" href"), name.hasSuffix(" action"))
            guard isHref || isAction, let end = text[equals.upperBound...].firstIndex(of: "\"") else {
                rest = text[equals.upperBound...]
                continue
            }
            return (equals.upperBound..<end, isAction)
        }
        return nil
    }
}

extension ConsoleEndpoint {
    /// Where a console endpoint acts, for an operator limited to some tenants (``ConsoleOperatorRecord/tenants``).
    enum Scope {
        /// Served to anyone (the sign-in steps, the stylesheet): the handler checks what it needs.
        case open
        /// The tenants page and a tenant's own page: their handlers check the operator's tenants.
        case tenants
        /// A page acting in the tenant its URL names (``ConsoleTenant``): refused (403) for a tenant the operator may not use.
        case tenant
        /// The project's own settings, keys, webhooks, templates, deliveries and dashboard: refused (403) to an operator
        /// who may not use the project (the default tenant).
        case project
    }

    var scope: Scope {
        switch self {
        // A provider's test result is reached first without the session (a cross-site redirect): it checks the operator.
        case .root, .stylesheet, .script, .showSignIn, .signIn, .showCode, .submitCode, .signOut, .showSetup, .submitSetup, .providerTestResult:
            .open
        case .tenants, .createTenant, .showTenant, .saveTenant, .deleteTenant: .tenants
        case .users, .user, .act, .bulkAct, .showNewUser, .createUser, .transfers, .importUsers, .importJob, .exportUsers, .security,
            .identityProviders, .showIdentityProvider, .saveIdentityProvider, .deleteIdentityProvider:
            .tenant
        case .dashboard, .deliveries, .showKeys, .rotateKeys, .webhooks, .actOnWebhooks, .templates, .saveTemplate, .previewTemplate, .settings,
            .changeTestNumbers, .changeSettings, .changeProvider, .blockingDryRun, .changeProviderState, .startProviderTest,
            .usageCSV, .outbox:
            .project
        }
    }
}

extension ConsoleRoutes {
    /// `handler` behind the operator's tenant limit for an endpoint of `scope`: a tenant page runs in the tenant its URL
    /// names, a project page only for an operator who may use the project; any other is refused with 403 (a tenant
    /// page without a tenant, for an operator limited to tenants, leads to the first of them).
    func scoped(_ scope: ConsoleEndpoint.Scope, _ handler: @escaping Handler) -> Handler {
        switch scope {
        case .open, .tenants: return handler
        case .project:
            return { request, context in
                guard let caller = try await caller(request) else { return Self.toSignIn }
                guard caller.operatorRecord.mayUse(.default) else {
                    // Home after sign-in: an operator limited to tenants starts at the tenants page.
                    if request.method == .get && request.uri.path == Self.home { return ConsolePages.redirect("/console/tenants") }
                    return tenantRefused(caller)
                }
                return try await ConsoleTenant.$signedIn.withValue(caller) { try await handler(request, context) }
            }
        case .tenant:
            return { request, context in
                guard let caller = try await caller(request) else { return Self.toSignIn }
                let named = ConsoleForm.query("tenant", in: request) ?? ""
                let id = TenantID(rawValue: named)
                guard caller.operatorRecord.mayUse(id) else {
                    // A list page without a tenant (the navigation's) opens in the operator's first tenant.
                    if named.isEmpty, request.method == .get, Self.listPages.contains(request.uri.path),
                        let first = caller.operatorRecord.tenants?.first
                    {
                        return ConsolePages.redirect(
                            ConsoleTenant(id: first, displayName: "").scoped(Substring(request.uri.description), html: false))
                    }
                    return tenantRefused(caller)
                }
                var tenant = ConsoleTenant(id: id, displayName: "")
                if !id.isDefault {
                    guard TenantConfig.isTenantID(named), let config = try await flow.tenants.tenant(named) else {
                        return pages.message(
                            "Tenant", "This project has no tenant \(named).", link: ("/console/tenants", "Tenants"), caller: caller, status: .notFound
                        )
                    }
                    tenant = ConsoleTenant(id: id, displayName: config.displayName)
                }
                // A fresh origin (its own notes) for the request: outside a request the task's origin is the process's
                // default one, whose notes the tenant scope would otherwise mark for every later console request.
                let origin = AuditOrigin(ip: context.clientIP, actor: caller.email)
                return try await ConsoleTenant.$signedIn.withValue(caller) {
                    try await ConsoleTenant.$current.withValue(tenant) {
                        try await AuditOrigin.$current.withValue(origin) {
                            try await flow.operatorAccounts.inTenant(named) { try await handler(request, context) }
                        }
                    }
                }
            }
        }
    }

    /// The tenant pages the navigation links to, which open in an operator's first tenant when they name none.
    static let listPages: Set<String> = ["/console/users", "/console/import", "/console/security", "/console/providers"]

    /// The 403 page of a tenant (or the project) the operator may not use.
    func tenantRefused(_ caller: ConsoleCaller) -> Response {
        pages.message(
            "Refused", "Your account may not use this tenant.", link: ("/console/tenants", "Your tenants"), caller: caller, status: .forbidden)
    }
}

extension AuditOrigin {
    /// The origin of a console operator's action: its address and email, in the tenant the page acts in (the request's
    /// ``TenantScope``, kept so the flows it runs stay in the tenant and its events name it).
    static func console(ip: String?, actor: String) -> AuditOrigin {
        let scope = AuditOrigin.current
        var origin = AuditOrigin(ip: ip, actor: actor)
        (origin.tenant, origin.tenantSettings) = (scope.tenant, scope.tenantSettings)
        origin.notes.tenant = scope.notes.tenant
        return origin
    }
}
