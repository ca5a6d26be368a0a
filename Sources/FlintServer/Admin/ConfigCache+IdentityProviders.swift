package import FlintCore

extension ConfigCache {
    /// Replaces one provider's resource in `collection` (`nil` removes it), validated, stored with its
    /// `CONFIG_CHANGED` event (`change` plus the collection) and sealed as every config save is; the admin API's
    /// provider resources and the console's provider forms both save through it.
    /// - Returns: the resource as stored.
    /// - Throws: ``AuthError`` `INVALID_CONFIG` for a resource the config refuses.
    @discardableResult
    package func saveIdentityProvider(
        _ providerID: String, in collection: ProjectConfig.IdpCollection, _ resource: [String: JSONValue]?, at now: Instant,
        change: [String: JSONValue]
    ) async throws -> [String: JSONValue]? {
        let updated = try current.setting(idp: providerID, in: collection, to: resource)
        var detail = change
        detail["collection"] = .string(collection.rawValue)
        try await save(updated, at: now, change: detail)
        return updated.idpResources(collection)[providerID]
    }
}
