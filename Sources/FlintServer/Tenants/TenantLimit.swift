package import FlintCore
package import FlintStore

/// What console operators' and admin credentials' tenant limits share when they change: the tenants named must exist,
/// and the audit event says what the limit became.
package enum TenantLimit {
    /// Throws `TENANT_NOT_FOUND` (its detail the tenant's ID) unless every tenant `limit` names, but the default
    /// tenant, exists.
    package static func requireExisting(_ limit: [TenantID]?, in tx: any StoreTransaction) async throws {
        for tenant in limit ?? [] where !tenant.isDefault {
            guard try await tx.tenant(id: tenant.rawValue) != nil else { throw AuthError.tenantNotFound.with(detail: tenant.rawValue) }
        }
    }

    /// The audit detail of a limit: `tenants`, its tenants' IDs (`all` when there is no limit), and `project`, whether
    /// the default tenant is among them.
    package static func auditDetail(_ limit: [TenantID]?) -> [String: JSONValue] {
        guard let limit else { return ["tenants": "all"] }
        return ["tenants": .array(limit.filter { !$0.isDefault }.map { .string($0.rawValue) }), "project": .bool(limit.contains(.default))]
    }
}
