import FlintCore
package import FlintStore

/// The tenant a request runs in, resolved once by ``TenantMiddleware`` for the endpoints that serve tenants
/// (``TenantHandling/scoped``) and bound with the request's ``AuditOrigin``, which the store carries into the write
/// closures it runs on its own tasks. Flows read it where they name a tenant (``TenantID/scoped``) and through
/// ``ConfigCache/current``, which answers the tenant's settings in a tenant; outside a tenant's request (every other
/// endpoint, the console, the CLI, background work) it is the default tenant and the project's config.
///
/// Identity Platform's order: the path's `{tenant}`, then the body's (or query's) `tenantId`; two that disagree are
/// `TENANT_ID_MISMATCH`. A tenant's ID token is refused in another tenant (``Sessions/checkTenant(of:)``), a refresh
/// token answers its own tenant, and a custom token's `tenant_id` must be the request's.
enum TenantScope {
    /// The tenant the request in progress runs in.
    static var tenant: TenantID { AuditOrigin.current.tenant }

    /// Runs `body` in `tenant` (with `settings`, its config over the project's), named in the events it records.
    static func run<T>(
        in tenant: TenantID, settings: ProjectConfig?, _ body: () async throws -> T
    ) async rethrows -> T {
        var origin = AuditOrigin.current
        origin.tenant = tenant
        origin.tenantSettings = settings
        origin.notes.tenant = tenant
        return try await AuditOrigin.$current.withValue(origin) { try await body() }
    }

    /// Runs `body` in the tenant `id` (its settings over `project`'s config) as a request naming it would run:
    /// `TENANT_NOT_FOUND` for an unknown tenant, `PROJECT_DISABLED` when its `disableAuth` is on. For what a request
    /// carries rather than names (an MFA pending credential's sealed tenant).
    static func run<T>(
        resolving id: String, tenants: TenantCache, project: ProjectConfig, _ body: () async throws -> T
    ) async throws -> T {
        try await run(in: TenantID(rawValue: id), settings: try await tenants.open(id, over: project).settings, body)
    }

    /// `TENANT_ID_MISMATCH` unless `tenant` (a token's, a code's, a credential's) is the request's.
    static func require(_ tenant: String, detail: String? = nil) throws(AuthError) {
        guard tenant == Self.tenant.rawValue else {
            throw detail.map { AuthError.tenantIDMismatch.with(detail: $0) } ?? AuthError.tenantIDMismatch
        }
    }
}

extension TenantID {
    /// The tenant of the request in progress (``TenantScope``): the default tenant outside a tenant's request.
    package static var scoped: TenantID { TenantScope.tenant }
}
