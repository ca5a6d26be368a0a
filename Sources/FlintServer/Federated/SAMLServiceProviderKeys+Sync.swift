import FlintCore
import FlintStore
import Logging

/// A tenant's (or the project's) SP keys follow its SAML providers in the transaction that changes them: a provider
/// created gets its key, a provider deleted loses its keys, so no read ever has to make one and no key outlives its
/// provider (a tenant's deletion takes its keys in the store's `deleteTenant`). Providers configured before keys
/// existed get theirs at a node's start (``backfill(store:secrets:now:logger:)``).
extension SAMLServiceProviderKeys {
    /// Inside `tx`: gives each provider of `providers` without a key one that signs, deletes the keys of providers not
    /// among them, and those whose retirement has come.
    /// - Returns: how many keys were made and deleted.
    @discardableResult
    static func sync(
        in tx: any ConfigWrites, tenant: TenantID, providers: Set<String>, secrets: SecretsAtRest, now: Instant
    ) async throws -> (made: Int, deleted: Int) {
        let keys = try await tx.samlSPKeys(tenant: tenant, providerID: nil)
        var deleted = 0
        for key in keys where !providers.contains(key.providerID) || (key.retireAt.map { $0 <= now } ?? false) {
            try await tx.deleteSAMLSPKey(key)
            deleted += 1
        }
        let keyed = Set(keys.filter { providers.contains($0.providerID) }.map(\.providerID))
        var made = 0
        for provider in providers.subtracting(keyed).sorted() {
            _ = try await tx.insertSAMLSPKey(try make(tenant: tenant, providerID: provider, secrets: secrets, now: now, activated: true))
            made += 1
        }
        return (made, deleted)
    }

    /// At a node's start: brings every tenant's keys and the project's in line with their SAML providers (the
    /// providers configured before SP keys existed get theirs; keys left behind are deleted). Reads first and writes
    /// only when something is to change, in one transaction re-reading the documents, so of nodes starting together
    /// the store's single writer lets the first make the keys and the others find them.
    static func backfill(store: any AuthStore, secrets: SecretsAtRest, now: Instant, logger: Logger) async throws {
        let pending = try await store.read { reader in
            let keys = try await reader.samlSPKeys(tenant: nil, providerID: nil)
            let keyed = Dictionary(grouping: keys, by: \.tenant).mapValues { Set($0.map(\.providerID)) }
            return try await providers(in: reader) != keyed || keys.contains { $0.retireAt.map { $0 <= now } ?? false }
        }
        guard pending else { return }
        let (made, deleted) = try await store.write { tx in
            var total = (made: 0, deleted: 0)
            let wanted = try await providers(in: tx)
            let tenants = Set(wanted.keys).union(try await tx.samlSPKeys(tenant: nil, providerID: nil).map(\.tenant))
            for tenant in tenants.sorted(by: { $0.rawValue < $1.rawValue }) {
                let step = try await sync(in: tx, tenant: tenant, providers: wanted[tenant] ?? [], secrets: secrets, now: now)
                total = (total.made + step.made, total.deleted + step.deleted)
            }
            return total
        }
        logger.notice("SAML SP keys brought in line with the providers", metadata: ["made": "\(made)", "deleted": "\(deleted)"])
    }

    /// The SAML provider IDs of the project (the default tenant) and of each tenant, from their stored documents
    /// (provider IDs are never sealed); tenants without one left out.
    private static func providers(in reader: any ConfigReads & TenantsReads) async throws -> [TenantID: Set<String>] {
        var out: [TenantID: Set<String>] = [:]
        let project = ConfigCache.parse(try await reader.projectConfig()) ?? [:]
        out[.default] = Set(ProjectConfig.idpResources(.saml, in: project).keys)
        for record in try await SecretsAtRest.allTenants(in: reader) {
            out[TenantID(rawValue: record.id)] = Set(ProjectConfig.idpResources(.saml, in: ConfigCache.parse(record.document) ?? [:]).keys)
        }
        return out.filter { !$0.value.isEmpty }
    }
}
