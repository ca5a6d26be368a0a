import FlintCore
import FlintServer
import FlintStore
import Hummingbird

/// The generic OIDC and SAML providers of the project or, with `?tenant=`, of a tenant (``ConsoleTenant``): their list
/// (`/console/providers`) and each on a page of its own (`/console/providers/{provider}`; `/console/providers/oidc` and
/// `/console/providers/saml` add one), created, changed, turned on or off and deleted through the admin API's rules
/// (``IdpConfigAdmin``: the project's config, or the tenant's document as the admin API's tenant paths change it), so
/// each change is checked, stored and audited (`CONFIG_CHANGED`, the operator as actor, a tenant's naming it) as the
/// Admin SDKs' would be, and a refusal's Firebase message is shown beside the field it names
/// (``ConsoleIdentityProviders``). The pages act in the tenant their URL names: an operator limited to other tenants is
/// refused them (``ConsoleEndpoint/Scope/tenant``).
extension ConsoleRoutes {
    func identityProviders(_ request: Request, context: FlintRequestContext) async throws -> Response {
        guard let caller = try await caller(request) else { return Self.toSignIn }
        var rows: [[String: Any]] = []
        for collection in [ProjectConfig.IdpCollection.oauth, .saml] {
            let admin = identityProviders(collection)
            var token: String?
            repeat {
                let page = try await admin.list(pageSize: nil, pageToken: token)
                rows += page.resources.map { ConsoleIdentityProviders.row($0.id, collection, $0.resource) }
                token = page.next
            } while token != nil
        }
        var data: [String: Any] = ["rows": rows]
        data["tenantPage"] = providerTenant.map { "/console/tenants/" + $0 }
        if let removed = ConsoleForm.query("removed", in: request) { data["notice"] = "\(removed) deleted." }
        return pages.page("identityProviders", title: title("identity providers"), data, caller: caller)
    }

    func showIdentityProvider(_ request: Request, context: FlintRequestContext) async throws -> Response {
        guard let caller = try await caller(request) else { return Self.toSignIn }
        let name = context.parameters.get("provider") ?? ""
        guard let collection = ConsoleIdentityProviders.collection(of: name) else { return unknownProvider(caller) }
        if name == ConsoleIdentityProviders.newName(collection) {
            guard caller.canWrite else { return pages.message("Refused", "Your role (read) may only read.", caller: caller, status: .forbidden) }
            return providerPage(caller, nil, collection, resource: nil)
        }
        // As the admin API answers it: a SAML provider's with its SP certificate.
        guard let resource = try await storedProvider(name, collection) else { return unknownProvider(caller) }
        var data: [String: Any] = [:]
        if ConsoleForm.query("saved", in: request) != nil { data["notice"] = "Saved." }
        return providerPage(caller, name, collection, resource: resource, data)
    }

    func saveIdentityProvider(_ request: Request, context: FlintRequestContext) async throws -> Response {
        try await change(request) { caller, form in
            let name = context.parameters.get("provider") ?? ""
            guard let collection = ConsoleIdentityProviders.collection(of: name) else { return unknownProvider(caller) }
            let isNew = name == ConsoleIdentityProviders.newName(collection)
            let id = isNew ? ConsoleIdentityProviders.providerID(form, collection) : name
            let (fields, mask) = ConsoleIdentityProviders.patch(form, collection)
            let admin = identityProviders(collection)
            do {
                try await asOperator(caller, context: context) {
                    if isNew { _ = try await admin.create(id, fields) } else { _ = try await admin.update(id, patch: fields, updateMask: mask) }
                }
            } catch let error as AuthError {
                if error == .idpConfigNotFound { return unknownProvider(caller) }
                var stored: [String: JSONValue]?
                if !isNew { stored = try await storedProvider(id, collection) }
                let errors: [String: Any] = [ConsoleIdentityProviders.field(for: error, collection): error.message]
                return providerPage(caller, isNew ? nil : id, collection, resource: stored, ["errors": errors], form: form, status: .badRequest)
            }
            return ConsolePages.redirect("/console/providers/\(id)?saved=1")
        }
    }

    func deleteIdentityProvider(_ request: Request, context: FlintRequestContext) async throws -> Response {
        try await change(request) { caller, form in
            let id = context.parameters.get("provider") ?? ""
            guard let collection = ConsoleIdentityProviders.collection(of: id), id != ConsoleIdentityProviders.newName(collection) else {
                return unknownProvider(caller)
            }
            guard form["confirmed"] == "yes" else {
                return pages.page("identityProviderDelete", title: title("delete \(id)"), ["providerId": id], caller: caller)
            }
            do {
                try await asOperator(caller, context: context) { try await identityProviders(collection).delete(id) }
            } catch let error as AuthError where error == .idpConfigNotFound {
                return unknownProvider(caller)
            }
            let removed = ConsoleRoutes.encode(id)
            return ConsolePages.redirect(
                providerTenant == nil ? "/console/settings?removed=\(removed)#sign-in-methods" : "/console/providers?removed=\(removed)")
        }
    }

    /// The tenant whose providers the page shows (``ConsoleTenant/current``), `nil` for the project's.
    private var providerTenant: String? {
        ConsoleTenant.current.flatMap { $0.id.isDefault ? nil : $0.id.rawValue }
    }

    /// The providers of `collection` where the page acts, by the admin API's rules: the tenant's (as the admin API's
    /// `projects/{p}/tenants/{t}/…` paths change them) or the project's.
    private func identityProviders(_ collection: ProjectConfig.IdpCollection) -> IdpConfigAdmin {
        let projectID = flow.node.settings.projectID
        if let tenant = providerTenant {
            return .tenant(collection, tenant, projectID: projectID, tenants: flow.tenantAdmin, spKeys: flow.node.samlSPKeys)
        }
        return .project(collection, projectID: projectID, config: flow.node.config, clock: flow.node.clock, spKeys: flow.node.samlSPKeys)
    }

    /// Provider `id` as the admin API answers it, or `nil` when there is none.
    private func storedProvider(_ id: String, _ collection: ProjectConfig.IdpCollection) async throws -> [String: JSONValue]? {
        do { return try await identityProviders(collection).get(id) } catch let error as AuthError where error == .idpConfigNotFound {
            return nil
        }
    }

    /// A page's title: in the project's settings, or in the tenant's.
    private func title(_ text: String) -> String {
        providerTenant.map { "Tenants — \($0) — \(text)" } ?? "Settings — \(text)"
    }

    /// Where the pages lead back to: the project's sign-in methods, or the tenant's list of providers.
    private var back: [String: String] {
        providerTenant == nil
            ? ["href": "/console/settings#sign-in-methods", "label": "Back to the sign-in methods"]
            : ["href": "/console/providers", "label": "Back to the tenant's identity providers"]
    }

    /// A provider's page (`id` `nil`: a new one's form) with `data`; `form` is a refused form's values, shown again.
    private func providerPage(
        _ caller: ConsoleCaller, _ id: String?, _ collection: ProjectConfig.IdpCollection, resource: [String: JSONValue]?,
        _ data: [String: Any] = [:], form: [String: String]? = nil, status: HTTPResponse.Status = .ok
    ) -> Response {
        let base = flow.node.settings.publicBaseURL
        var page = ConsoleIdentityProviders.data(id, collection, resource: resource, form: form, publicBaseURL: base).merging(data) { $1 }
        page["action"] = "/console/providers/" + (id ?? ConsoleIdentityProviders.newName(collection))
        page["handler"] = base + "/__/auth/handler"
        (page["back"], page["tenant"]) = (back, providerTenant)
        let kind = collection == .saml ? "SAML provider" : "OpenID Connect provider"
        return pages.page("identityProvider", title: title(id.map { "\(kind) \($0)" } ?? "new \(kind)"), page, caller: caller, status: status)
    }

    private func unknownProvider(_ caller: ConsoleCaller) -> Response {
        let owner = providerTenant.map { "The tenant \($0)" } ?? "This project"
        return pages.message(
            "Provider", "\(owner) has no such OpenID Connect or SAML provider.", link: (back["href"] ?? "", back["label"] ?? ""), caller: caller,
            status: .notFound)
    }
}
