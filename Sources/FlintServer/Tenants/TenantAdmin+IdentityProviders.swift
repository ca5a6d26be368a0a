package import FlintCore
import FlintStore

extension TenantAdmin {
    /// Changes one provider resource of tenant `id` in one transaction: `transform` gets the stored resource (`nil`
    /// when there is none) and answers the new one (`nil` removes it), validated by the project's rules, stored in the
    /// tenant's document with its `CONFIG_CHANGED` event (`change` plus the tenant and collection), then announced. A
    /// SAML provider created gets its SP key, one deleted loses its keys, in the same transaction.
    /// - Returns: the resource as stored.
    /// - Throws: `INVALID_TENANT_ID`, `TENANT_NOT_FOUND`, what `transform` throws, or `INVALID_CONFIG`.
    @discardableResult
    package func changeIdentityProvider(
        _ providerID: String, in collection: ProjectConfig.IdpCollection, tenant id: String, change: [String: JSONValue],
        _ transform: @escaping @Sendable ([String: JSONValue]?) throws -> [String: JSONValue]?
    ) async throws -> [String: JSONValue]? {
        guard TenantConfig.isTenantID(id) else { throw AuthError.invalidTenantID }
        let now = clock.now()
        var detail = change
        detail["tenant"] = .string(id)
        detail["collection"] = .string(collection.rawValue)
        let saved = try await store.write { [detail] tx -> [String: JSONValue]? in
            guard let record = try await tx.tenant(id: id) else { throw AuthError.tenantNotFound }
            let tenant = try secrets.openTenant(record.document, id: id)
            let updated = try tenant.setting(idp: providerID, in: collection, to: try transform(tenant.idpResources(collection)[providerID]))
            guard try await tx.updateTenant(id: id, document: try secrets.storedTenantText(updated, id: id)) else { throw AuthError.tenantNotFound }
            if collection == .saml {
                try await SAMLServiceProviderKeys.sync(
                    in: tx, tenant: TenantID(rawValue: id), providers: Set(updated.idpResources(.saml).keys), secrets: secrets, now: now)
            }
            try await tx.audit(.configChanged, uid: nil, at: now, detail)
            return updated.idpResources(collection)[providerID]
        }
        await changed()
        return saved
    }
}
