import FlintCore
import FlintStore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A tenant's provider secrets (an OIDC provider's `clientSecret`, …: ``configSecretPaths``) are sealed in the
/// tenant's stored document exactly as the project's are in its config, each bound to its tenant, provider and field
/// (`idp-secret:tenants/TENANT/COLLECTION/PROVIDER:PATH`). Values stored in clear before are read as they are, sealed
/// by the tenant's next write, and all at once at the first start with a key (``sealTenantSecretsInClear(in:)``).
extension SecretsAtRest {
    /// The `owner` of a tenant's secret names.
    static func tenantOwner(_ id: String) -> String { "tenants/\(id)" }

    /// The stored text of tenant `id`'s document: sorted JSON, its provider secrets sealed.
    func storedTenantText(_ tenant: TenantConfig, id: String) throws -> String {
        try ConfigCache.encode(sealConfigSecrets(tenant.document, owner: Self.tenantOwner(id)))
    }

    /// Tenant `id` from its stored text, its provider secrets opened.
    /// - Throws: ``MasterKeyError`` when a secret does not open with this key; `AuthError` for a document the tenant
    ///   rules refuse.
    func openTenant(_ text: String, id: String) throws -> TenantConfig {
        let value = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        return try TenantConfig(document: try openConfigSecrets(value.objectValue ?? [:], owner: Self.tenantOwner(id)))
    }

    /// Inside `tx`: checks that every tenant's provider secrets open with this key, and writes the tenants with
    /// secrets in clear again with them sealed, when there is a key.
    /// - Returns: how many values were sealed.
    func sealTenantSecretsInClear(in tx: any TenantsWrites) async throws -> Int {
        var sealed = 0
        for record in try await Self.allTenants(in: tx) {
            guard let document = ConfigCache.parse(record.document) else { continue }
            let owner = Self.tenantOwner(record.id)
            let inClear = try checkConfigSecrets(document, owner: owner)
            guard inClear > 0, masterKey != nil else { continue }
            _ = try await tx.updateTenant(id: record.id, document: try ConfigCache.encode(sealConfigSecrets(document, owner: owner)))
            sealed += inClear
        }
        return sealed
    }

    /// Inside `tx`: seals every tenant's provider secrets again under `next`'s key.
    /// - Returns: how many values were sealed under the new key.
    func rewrapTenantSecrets(in tx: any TenantsWrites, to next: SecretsAtRest) async throws -> Int {
        var count = 0
        for record in try await Self.allTenants(in: tx) {
            guard let document = ConfigCache.parse(record.document) else { continue }
            let (rewrapped, sealed) = try rewrappingConfigSecrets(document, owner: Self.tenantOwner(record.id), to: next)
            if sealed > 0 { _ = try await tx.updateTenant(id: record.id, document: try ConfigCache.encode(rewrapped)) }
            count += sealed
        }
        return count
    }

    /// Every tenant, a page at a time.
    static func allTenants(in tx: any TenantsReads) async throws -> [TenantRecord] {
        var all: [TenantRecord] = []
        while true {
            let page = try await tx.tenants(after: all.last?.id, limit: 500)
            all += page
            if page.count < 500 { return all }
        }
    }
}
