/// The project's tenants, by ID: each read is one primary-key lookup or one keyset page on it, never a scan, so a
/// project with many tenants lists and resolves them at the same cost as one with few. Queries.
public protocol TenantsReads: Sendable {
    /// The tenant with ID `id`, if any.
    func tenant(id: String) async throws -> TenantRecord?
    /// Up to `limit` tenants in ID order, those after `after` (from the first without it).
    func tenants(after: String?, limit: Int) async throws -> [TenantRecord]
}

/// The project's tenants. Writes, inside a transaction.
public protocol TenantsWrites: TenantsReads {
    /// Stores a new tenant; returns `false`, storing nothing, when a tenant has its ID already.
    func insertTenant(_ tenant: TenantRecord) async throws -> Bool
    /// Replaces tenant `id`'s document; returns `false` when there is no such tenant.
    func updateTenant(id: String, document: String) async throws -> Bool
    /// Deletes tenant `id` with its users and everything keyed by them (federated identities, passkeys, second factors,
    /// recovery codes, refresh tokens, oob codes, code sessions) and its SAML providers' SP keys; returns how many users went, `nil` when there was
    /// no such tenant.
    func deleteTenant(id: String) async throws -> Int?
}
