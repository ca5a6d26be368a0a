package import FlintCore
package import FlintStore

/// The operator's tenant operations, for the admin API (``TenantRoutes``) and the command line (`flint tenants`):
/// create, get, list, patch and delete, each one transaction with its `CONFIG_CHANGED` audit event (by the current
/// ``AuditOrigin``), announced to every node (``StoreChange/tenants``) so their ``TenantCache``s forget their copies.
///
/// Deleting a tenant deletes only the resource, as Identity Platform does. Once users carry their tenant (the next
/// step of issue 32), the tenant's users, their sessions and codes are deleted with it in the same transaction, so no
/// account outlives its tenant and a new tenant never meets an old one's users (a new tenant's ID is never a deleted
/// one's either: IDs carry 5 random characters and a taken ID is drawn again).
package struct TenantAdmin: Sendable {
    package let store: any AuthStore
    package let clock: any WallClock
    package let random: any RandomSource

    /// The cache of the node serving the admin API (`nil` for the command line): forgotten at once after a change,
    /// before the announcement reaches it.
    let cache: TenantCache?
    /// Seals the tenants' provider secrets in their stored documents and opens them (``SecretsAtRest+Tenants``).
    let secrets: SecretsAtRest

    /// Most tenants a page lists, and how many without `pageSize` (Identity Platform's).
    package static let maxPageSize = 1000
    package static let defaultPageSize = 20
    /// How many new IDs are drawn before a create gives up (each collision is a 1 in 60 million chance per tenant).
    static let idAttempts = 5

    /// The command line's: provider secrets sealed and opened with `masterKey` (kept in clear without one).
    package init(store: any AuthStore, clock: any WallClock, random: any RandomSource, masterKey: MasterKey?) {
        self.init(store: store, clock: clock, random: random, cache: nil, secrets: SecretsAtRest(masterKey: masterKey))
    }

    init(store: any AuthStore, clock: any WallClock, random: any RandomSource, cache: TenantCache?, secrets: SecretsAtRest) {
        (self.store, self.clock, self.random, self.cache, self.secrets) = (store, clock, random, cache, secrets)
    }

    /// Creates a tenant from a request body (its fields; `name` and `tenantId` are output only), with a new ID.
    /// - Returns: the tenant's ID and settings.
    /// - Throws: ``AuthError`` for an invalid body (`MISSING_DISPLAY_NAME`, `INVALID_DISPLAY_NAME`, …).
    package func create(_ body: [String: JSONValue]) async throws -> (id: String, tenant: TenantConfig) {
        // Provider resources are made through their own resources, never with the tenant.
        let tenant = try TenantConfig(document: body.filter { ProjectConfig.IdpCollection(rawValue: $0.key) == nil })
        let now = clock.now()
        for _ in 0..<Self.idAttempts {
            let id = TenantConfig.newID(displayName: tenant.displayName, random: random)
            let text = try secrets.storedTenantText(tenant, id: id)
            let created = try await store.write { tx in
                guard try await tx.insertTenant(TenantRecord(id: id, document: text, createdAt: now)) else { return false }
                try await tx.audit(.configChanged, uid: nil, at: now, ["tenant": .string(id), "created": .bool(true)])
                return true
            }
            if created {
                await changed()
                return (id, tenant)
            }
        }
        throw AuthError.internalError
    }

    /// The tenant `id`, read from the store.
    /// - Throws: `INVALID_TENANT_ID` for an ID no tenant can have, `TENANT_NOT_FOUND` when there is none.
    package func get(_ id: String) async throws -> TenantConfig {
        try Self.check(id)
        guard let record = try await store.read({ try await $0.tenant(id: id) }) else { throw AuthError.tenantNotFound }
        return try secrets.openTenant(record.document, id: id)
    }

    /// One page of tenants in ID order: up to `pageSize` (``defaultPageSize`` when `nil`, at most ``maxPageSize``)
    /// after `pageToken`, and the token of the next page when there may be one.
    /// - Throws: `INVALID_PAGE_SELECTION` for a token no listing gave, `INVALID_ARGUMENT` for a negative size.
    package func list(pageSize: Int?, pageToken: String?) async throws -> (tenants: [(id: String, tenant: TenantConfig)], nextPageToken: String?) {
        if let pageSize, pageSize < 0 { throw AuthError.invalidArgument("pageSize must not be negative.") }
        let size = min(pageSize.flatMap { $0 == 0 ? nil : $0 } ?? Self.defaultPageSize, Self.maxPageSize)
        let after = pageToken.flatMap { $0.isEmpty ? nil : $0 }
        if let after, !TenantConfig.isTenantID(after) { throw AuthError.invalidPageSelection }
        // One row more than the page says whether another page follows.
        let records = try await store.read { try await $0.tenants(after: after, limit: size + 1) }
        let page = try records.prefix(size).map { (id: $0.id, tenant: try secrets.openTenant($0.document, id: $0.id)) }
        return (page, records.count > size ? page.last?.id : nil)
    }

    /// Applies a patch to tenant `id` with its `updateMask` (without one, the fields the patch sends).
    /// - Returns: the tenant as stored.
    package func update(_ id: String, patch: [String: JSONValue], updateMask: [String]?) async throws -> TenantConfig {
        try Self.check(id)
        let now = clock.now()
        let mask = updateMask ?? TenantConfig.fields.filter { patch[$0] != nil }
        let updated = try await store.write { tx -> TenantConfig in
            guard let record = try await tx.tenant(id: id) else { throw AuthError.tenantNotFound }
            let updated = try secrets.openTenant(record.document, id: id).applying(patch: patch, updateMask: mask)
            guard try await tx.updateTenant(id: id, document: try secrets.storedTenantText(updated, id: id)) else { throw AuthError.tenantNotFound }
            try await tx.audit(.configChanged, uid: nil, at: now, ["tenant": .string(id), "updateMask": .array(mask.map(JSONValue.string))])
            return updated
        }
        await changed()
        return updated
    }

    /// Deletes tenant `id` with its users (and all that is keyed by them), audited with their count.
    /// - Throws: `INVALID_TENANT_ID`, or `TENANT_NOT_FOUND` when there is none.
    package func delete(_ id: String) async throws {
        try Self.check(id)
        let now = clock.now()
        try await store.write { tx in
            guard let users = try await tx.deleteTenant(id: id) else { throw AuthError.tenantNotFound }
            try await tx.audit(
                .configChanged, uid: nil, at: now, ["tenant": .string(id), "deleted": .bool(true), "usersDeleted": .number(Double(users))])
        }
        await changed()
    }

    /// Runs `body` on the users of tenant `id` (``TenantScope``), for the command line's tools that work on the store
    /// alone and read no config (`flint users export|import --tenant`); the project's own users when `id` is `nil` or
    /// empty. The console and `flint users` run through ``UserConsole/inTenant(_:_:)``, which adds the tenant's settings.
    /// - Throws: `TENANT_NOT_FOUND` when no tenant has that ID.
    package static func run<T>(inTenant id: String?, of store: any AuthStore, _ body: () async throws -> T) async throws -> T {
        guard let tenant = try await existing(id, in: store) else { return try await body() }
        // An origin of its own: the scope marks the origin's notes, which outside a request are the process's default's.
        return try await AuditOrigin.$current.withValue(AuditOrigin(ip: AuditOrigin.current.ip, actor: AuditOrigin.current.actor)) {
            try await TenantScope.run(in: tenant, settings: nil, body)
        }
    }

    /// The tenant a command-line tool or an operator's listing names (`--tenant`, `tenantId`), read from the store
    /// alone: `nil` when `id` is `nil` or empty.
    /// - Throws: `TENANT_NOT_FOUND` when no tenant has that ID (a malformed one included).
    package static func existing(_ id: String?, in store: any AuthStore) async throws -> TenantID? {
        guard let id, !id.isEmpty else { return nil }
        guard TenantConfig.isTenantID(id), try await store.read({ try await $0.tenant(id: id) }) != nil else { throw AuthError.tenantNotFound }
        return TenantID(rawValue: id)
    }

    private static func check(_ id: String) throws(AuthError) {
        guard TenantConfig.isTenantID(id) else { throw AuthError.invalidTenantID }
    }

    /// After a change: this node forgets its copies at once, the others when the announcement reaches them.
    func changed() async {
        cache?.forget()
        await store.announce(.tenants)
    }
}

extension Flows {
    /// The tenant operations of this node (the admin API's and the console's): its cache forgotten at once after a change.
    package var tenantAdmin: TenantAdmin {
        TenantAdmin(
            store: node.store, clock: node.clock, random: node.random, cache: tenants, secrets: SecretsAtRest(masterKey: node.settings.masterKey))
    }
}
