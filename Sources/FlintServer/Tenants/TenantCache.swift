package import FlintCore
import FlintStore
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The node's copy of the tenants its requests named, as ``ConfigCache`` is its copy of the project config: a tenant
/// is read from the store (one primary-key lookup) the first time a request names it, then served from memory until
/// a tenant changes (here, or announced by another node: ``StoreChange/tenants``) or the periodic reload, which
/// forget every copy. A project with many tenants costs memory only for those in use, and never a scan; an unknown ID
/// is not remembered (a client could name any number of them), so each costs its one lookup.
package final class TenantCache: Sendable {
    private let store: any AuthStore
    /// Opens the tenants' provider secrets.
    private let secrets: SecretsAtRest
    /// The tenants read so far, and how many times the copies were forgotten (a read that began before is dropped).
    private let state = Mutex((tenants: [String: TenantConfig](), generation: 0))
    /// Each tenant's settings (``TenantConfig/settings(over:)``) with the project config they were built over: built
    /// once per tenant and project config rather than validated again on every request in the tenant.
    private let built = Mutex([String: (project: ProjectConfig, settings: ProjectConfig)]())

    init(store: any AuthStore, secrets: SecretsAtRest = SecretsAtRest(masterKey: nil)) {
        (self.store, self.secrets) = (store, secrets)
    }

    /// The tenant `id` (from memory, else one read of the store), or `nil` when there is none.
    package func tenant(_ id: String) async throws -> TenantConfig? {
        let (copy, generation) = state.withLock { ($0.tenants[id], $0.generation) }
        if let copy { return copy }
        guard let record = try await store.read({ try await $0.tenant(id: id) }) else { return nil }
        let tenant = try secrets.openTenant(record.document, id: id)
        state.withLock { if $0.generation == generation { $0.tenants[id] = tenant } }
        return tenant
    }

    /// The tenant a request names in `tenantId`: `TENANT_NOT_FOUND` when no tenant has that ID (a malformed ID
    /// included, which no tenant can have).
    package func resolve(_ id: String) async throws -> TenantConfig {
        guard TenantConfig.isTenantID(id), let tenant = try await tenant(id) else { throw AuthError.tenantNotFound }
        return tenant
    }

    /// The config the requests in `tenant` (whose ID is `id`) read: the project's `project` with the tenant's sections
    /// (``TenantConfig/settings(over:)``), built the first time and kept until the tenants or the project config change.
    package func settings(of id: String, _ tenant: TenantConfig, over project: ProjectConfig) throws(AuthError) -> ProjectConfig {
        // A dictionary compares its storage first: the same project config is found equal without a walk.
        if let kept = built.withLock({ $0[id] }), kept.project == project { return kept.settings }
        let settings = try tenant.settings(over: project)
        built.withLock { $0[id] = (project, settings) }
        return settings
    }

    /// The tenant `id` opened for a request in it, with the settings its calls read (``settings(of:_:over:)``):
    /// `TENANT_NOT_FOUND` for an unknown (or malformed) ID, `PROJECT_DISABLED` when its `disableAuth` is on, the
    /// settings' own error when the tenant's sections cannot be laid over `project`. What every request naming,
    /// carrying or starting in a tenant goes through (``TenantMiddleware``, ``TenantScope/run(resolving:tenants:project:_:)``,
    /// the hosted handler's start), each mapping a refusal to its own answer.
    package func open(_ id: String, over project: ProjectConfig) async throws -> (tenant: TenantConfig, settings: ProjectConfig) {
        let tenant = try await resolve(id)
        guard !tenant.disableAuth else { throw AuthError.projectDisabled }
        return (tenant, try settings(of: id, tenant, over: project))
    }

    /// Forgets every copy: the next request naming a tenant reads it again.
    func forget() {
        state.withLock {
            $0.tenants.removeAll()
            $0.generation += 1
        }
        built.withLock { $0.removeAll() }
    }

    /// How many tenants are held (for tests).
    var count: Int { state.withLock { $0.tenants.count } }
}
