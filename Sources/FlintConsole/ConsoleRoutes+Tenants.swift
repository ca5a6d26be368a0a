import FlintCore
import FlintServer
import FlintStore
import HTTPTypes
import Hummingbird

/// The tenants pages (`/console/tenants`): the tenant picker — a search by ID prefix and pages of
/// ``ConsoleTenantForm/pageSize`` in ID order, so 10,000 tenants never make one long list — and each tenant's page,
/// whose form changes its sign-in settings. Tenants are created, changed and deleted through ``TenantAdmin``, the admin
/// API's own rules (its errors shown beside the field they concern), audited by the operator. An operator limited to
/// some tenants sees only those (and the project when allowed), is refused (403) any other's page or form, and may
/// neither create nor delete tenants.
extension ConsoleRoutes {
    func tenants(_ request: Request, context: FlintRequestContext) async throws -> Response {
        guard let caller = try await caller(request) else { return Self.toSignIn }
        let after = ConsoleForm.query("after", in: request).flatMap { TenantConfig.isTenantID($0) ? $0 : nil }
        // `find` is the header's picker's field (apart from the pages' own searches, `q`).
        let query = ConsoleForm.query("q", in: request) ?? ConsoleForm.query("find", in: request) ?? ""
        return try await tenantsPage(caller, query: query, after: after, next: ConsoleForm.query("next", in: request))
    }

    /// The picker with `data`: the project, then the tenants matching `query` after `after`, each opening `next` (a
    /// tenant page: the users list unless the picker was opened from another).
    private func tenantsPage(
        _ caller: ConsoleCaller, query: String, after: String?, next: String?, _ data: [String: Any] = [:], status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        var data = data
        let query = query.trimmingSpaces
        let section = next.flatMap { ConsoleTenant.isScoped($0[...]) && !$0.contains("?") ? $0 : nil } ?? "/console/users"
        let (entries, nextAfter) = try await ConsoleTenantForm.page(
            query: query, after: after, limit: caller.operatorRecord.tenants, admin: flow.tenantAdmin, cache: flow.tenants)
        data["q"] = query
        data["rows"] = entries.map { ConsoleTenantForm.row($0.id, $0.tenant, section: section) }
        if after == nil && query.isEmpty && caller.operatorRecord.mayUse(.default) { data["project"] = ["href": section] }
        if let nextAfter {
            data["nextPage"] = "/console/tenants?" + Self.queryString(["q": query, "after": nextAfter, "next": section])
        }
        data["canCreate"] = caller.canWrite && caller.operatorRecord.tenants == nil
        data["limited"] = caller.operatorRecord.tenants != nil
        return pages.page("tenants", title: "Tenants", data, caller: caller, status: status)
    }

    func createTenant(_ request: Request, context: FlintRequestContext) async throws -> Response {
        try await change(request) { caller, form in
            guard caller.operatorRecord.tenants == nil else { return tenantRefused(caller) }
            do {
                let created = try await asOperator(caller, context: context) {
                    try await flow.tenantAdmin.create(ConsoleTenantForm.newTenant(form))
                }
                return ConsolePages.redirect("/console/tenants/\(created.id)?created=1")
            } catch let error as AuthError {
                let data: [String: Any] = ["createError": error.message, "displayName": form["displayName"] ?? ""]
                return try await tenantsPage(caller, query: "", after: nil, next: nil, data, status: .badRequest)
            }
        }
    }

    func showTenant(_ request: Request, context: FlintRequestContext) async throws -> Response {
        guard let caller = try await caller(request) else { return Self.toSignIn }
        let id = context.parameters.get("tenant") ?? ""
        guard caller.operatorRecord.mayUse(TenantID(rawValue: id)) else { return tenantRefused(caller) }
        guard let tenant = try await storedTenant(id) else { return unknownTenant(caller, id) }
        var data: [String: Any] = [:]
        if ConsoleForm.query("created", in: request) != nil { data["notice"] = "Tenant \(id) created." }
        if ConsoleForm.query("saved", in: request) != nil { data["notice"] = "Saved." }
        return tenantPage(caller, id, tenant, data)
    }

    func saveTenant(_ request: Request, context: FlintRequestContext) async throws -> Response {
        try await change(request) { caller, form in
            let id = context.parameters.get("tenant") ?? ""
            guard caller.operatorRecord.mayUse(TenantID(rawValue: id)) else { return tenantRefused(caller) }
            guard let tenant = try await storedTenant(id) else { return unknownTenant(caller, id) }
            do {
                let (patch, mask) = try ConsoleTenantForm.patch(form, current: tenant)
                _ = try await asOperator(caller, context: context) { try await flow.tenantAdmin.update(id, patch: patch, updateMask: mask) }
                return ConsolePages.redirect("/console/tenants/\(id)?saved=1")
            } catch let error as AuthError {
                var data = ConsoleTenantForm.echo(form)
                data[ConsoleTenantForm.field(of: error) + "Error"] = error.message
                return tenantPage(caller, id, tenant, data, status: .badRequest)
            }
        }
    }

    func deleteTenant(_ request: Request, context: FlintRequestContext) async throws -> Response {
        try await change(request) { caller, form in
            let id = context.parameters.get("tenant") ?? ""
            guard caller.operatorRecord.tenants == nil else { return tenantRefused(caller) }
            guard let tenant = try await storedTenant(id) else { return unknownTenant(caller, id) }
            guard form["confirmed"] == "yes" else {
                return tenantPage(caller, id, tenant, ["deleteError": "Tick the box to confirm the deletion."], status: .badRequest)
            }
            try await asOperator(caller, context: context) { try await flow.tenantAdmin.delete(id) }
            return pages.message(
                "Tenants", "Tenant \(id) and its users deleted.", error: false, link: ("/console/tenants", "Tenants"), caller: caller, status: .ok)
        }
    }

    /// The tenant `id`, or `nil` when there is none (an ID no tenant can have included).
    private func storedTenant(_ id: String) async throws -> TenantConfig? {
        do { return try await flow.tenantAdmin.get(id) } catch let error as AuthError where error == .tenantNotFound || error == .invalidTenantID {
            return nil
        }
    }

    private func tenantPage(
        _ caller: ConsoleCaller, _ id: String, _ tenant: TenantConfig, _ data: [String: Any], status: HTTPResponse.Status = .ok
    ) -> Response {
        var page = ConsoleTenantForm.data(id, tenant).merging(data) { $1 }
        page["canDelete"] = caller.canWrite && caller.operatorRecord.tenants == nil
        return pages.page("tenant", title: "Tenants — \(tenant.displayName) (\(id))", page, caller: caller, status: status)
    }

    private func unknownTenant(_ caller: ConsoleCaller, _ id: String) -> Response {
        pages.message("Tenants", "This project has no tenant \(id).", link: ("/console/tenants", "Tenants"), caller: caller, status: .notFound)
    }
}
