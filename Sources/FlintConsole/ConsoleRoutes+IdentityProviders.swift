import FlintCore
import FlintServer
import Hummingbird

/// The project's generic OIDC and SAML providers, each on a page of its own (`/console/providers/{provider}`;
/// `/console/providers/oidc` and `/console/providers/saml` add one): created, changed, turned on or off and deleted
/// through the admin API's rules (``IdpConfigAdmin``), so each change is checked, stored and audited
/// (`CONFIG_CHANGED`, the operator as actor) as the Admin SDKs' would be, and a refusal's Firebase message is shown
/// beside the field it names (``ConsoleIdentityProviders``).
extension ConsoleRoutes {
    func showIdentityProvider(_ request: Request, context: FlintRequestContext) async throws -> Response {
        guard let caller = try await caller(request) else { return Self.toSignIn }
        let name = context.parameters.get("provider") ?? ""
        guard let collection = ConsoleIdentityProviders.collection(of: name) else { return unknownProvider(caller) }
        if name == ConsoleIdentityProviders.newName(collection) {
            guard caller.canWrite else { return pages.message("Refused", "Your role (read) may only read.", caller: caller, status: .forbidden) }
            return providerPage(caller, nil, collection, resource: nil)
        }
        guard var resource = flow.node.config.current.idpResources(collection)[name] else { return unknownProvider(caller) }
        // A SAML provider's page shows its SP certificate, as the admin API's answer carries it.
        if collection == .saml { resource = try await identityProviders(collection).get(name) }
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
                let stored = isNew ? nil : flow.node.config.current.idpResources(collection)[id]
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
                return pages.page("identityProviderDelete", title: "Settings — delete \(id)", ["providerId": id], caller: caller)
            }
            do {
                try await asOperator(caller, context: context) { try await identityProviders(collection).delete(id) }
            } catch let error as AuthError where error == .idpConfigNotFound {
                return unknownProvider(caller)
            }
            return ConsolePages.redirect("/console/settings?removed=\(ConsoleRoutes.encode(id))#sign-in-methods")
        }
    }

    /// The project's providers of `collection`, by the admin API's rules.
    private func identityProviders(_ collection: ProjectConfig.IdpCollection) -> IdpConfigAdmin {
        .project(collection, projectID: flow.node.settings.projectID, config: flow.node.config, clock: flow.node.clock, spKeys: flow.node.samlSPKeys)
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
        let kind = collection == .saml ? "SAML provider" : "OpenID Connect provider"
        let title = id.map { "Settings — \(kind) \($0)" } ?? "Settings — new \(kind)"
        return pages.page("identityProvider", title: title, page, caller: caller, status: status)
    }

    private func unknownProvider(_ caller: ConsoleCaller) -> Response {
        pages.message(
            "Provider", "This project has no such OpenID Connect or SAML provider.",
            link: ("/console/settings#sign-in-methods", "Back to the sign-in methods"), caller: caller, status: .notFound)
    }
}
