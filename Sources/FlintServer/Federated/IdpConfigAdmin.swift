package import FlintCore
package import FlintStore

/// The operator's operations on one collection of provider resources (``ProjectConfig/IdpCollection``), wherever
/// they live: the project's config (the node's ``ConfigCache``, or the store for the command line) or a tenant's
/// document (``TenantAdmin``). The admin API (``IdpConfigRoutes``) and `flint providers` both go through it, so both
/// apply one set of rules: create refuses a taken ID (`CONFIGURATION_EXISTS`), get, update and delete an unknown one
/// (`CONFIGURATION_NOT_FOUND`), an update copies its `updateMask`'s paths, and every result is validated by the
/// project config's rules, stored with its `CONFIG_CHANGED` event and announced. A SAML provider's answers carry its
/// service-provider certificates (`spConfig.spCertificates`, output only: ``SAMLServiceProviderKeys``), whose key is
/// made in the transaction that creates the provider and deleted with it; reading never writes.
package struct IdpConfigAdmin: Sendable {
    /// A change where the resources live: replaces resource `id` by what the transform makes of the stored one (`nil`
    /// removes it), audited with the detail; answers the resource as stored.
    package typealias Change =
        @Sendable (
            _ id: String, _ detail: [String: JSONValue], _ transform: @escaping @Sendable ([String: JSONValue]?) throws -> [String: JSONValue]?
        ) async throws -> [String: JSONValue]?

    package let collection: ProjectConfig.IdpCollection
    /// The resource names' owner: `projects/{p}` or `projects/{p}/tenants/{t}`.
    package let owner: String
    private let read: @Sendable () async throws -> [String: [String: JSONValue]]
    private let change: Change
    /// The tenant the resources belong to (the default tenant for the project's), which keys their SP key pairs.
    private let tenant: TenantID
    private let spKeys: SAMLServiceProviderKeys

    /// Most resources one page lists.
    package static let maxPageSize = 100

    package init(
        _ collection: ProjectConfig.IdpCollection, owner: String, tenant: TenantID, spKeys: SAMLServiceProviderKeys,
        read: @escaping @Sendable () async throws -> [String: [String: JSONValue]], change: @escaping Change
    ) {
        (self.collection, self.owner, self.tenant, self.spKeys, self.read, self.change) = (collection, owner, tenant, spKeys, read, change)
    }

    /// A tenant's resources, changed through `tenants` (`TENANT_NOT_FOUND` for an unknown tenant).
    package static func tenant(
        _ collection: ProjectConfig.IdpCollection, _ id: String, projectID: String, tenants: TenantAdmin, spKeys: SAMLServiceProviderKeys
    ) -> IdpConfigAdmin {
        IdpConfigAdmin(collection, owner: "projects/\(projectID)/tenants/\(id)", tenant: TenantID(rawValue: id), spKeys: spKeys) {
            try await tenants.get(id).idpResources(collection)
        } change: { provider, detail, transform in
            try await tenants.changeIdentityProvider(provider, in: collection, tenant: id, change: detail, transform)
        }
    }

    /// The project's resources in the node's config.
    package static func project(
        _ collection: ProjectConfig.IdpCollection, projectID: String, config: ConfigCache, clock: any WallClock, spKeys: SAMLServiceProviderKeys
    ) -> IdpConfigAdmin {
        IdpConfigAdmin(collection, owner: "projects/\(projectID)", tenant: .default, spKeys: spKeys) {
            config.project.idpResources(collection)
        } change: { id, detail, transform in
            let resource = try transform(config.project.idpResources(collection)[id])
            return try await config.saveIdentityProvider(id, in: collection, resource, at: clock.now(), change: detail)
        }
    }

    /// The project's resources in the store at hand (the command line's), the provider secrets opened and sealed with
    /// `masterKey`.
    package static func project(
        _ collection: ProjectConfig.IdpCollection, projectID: String, store: any AuthStore, masterKey: MasterKey?, clock: any WallClock
    ) -> IdpConfigAdmin {
        let secrets = SecretsAtRest(masterKey: masterKey)
        let spKeys = SAMLServiceProviderKeys(store: store, masterKey: masterKey, clock: clock)
        return IdpConfigAdmin(collection, owner: "projects/\(projectID)", tenant: .default, spKeys: spKeys) {
            try await ConfigCache.load(from: store, secrets: secrets).idpResources(collection)
        } change: { provider, detail, transform in
            let current = try await ConfigCache.load(from: store, secrets: secrets)
            let updated = try current.setting(idp: provider, in: collection, to: try transform(current.idpResources(collection)[provider]))
            var detail = detail
            detail["collection"] = .string(collection.rawValue)
            try await ConfigCache.save(updated, to: store, secrets: secrets, at: clock.now(), change: detail)
            return updated.idpResources(collection)[provider]
        }
    }

    /// Creates resource `id` from a request body (output-only fields dropped); a SAML provider gets its SP key pair in
    /// the same transaction.
    /// - Returns: the resource as stored, with a SAML provider's `spConfig.spCertificates`.
    /// - Throws: `INVALID_PROVIDER_ID`, `CONFIGURATION_EXISTS`, `INVALID_CONFIG`…
    package func create(_ id: String, _ body: [String: JSONValue]) async throws -> [String: JSONValue] {
        try check(id)
        let resource = Self.writable(body)
        let saved = try await change(id, ["created": .string(id)]) { existing in
            guard existing == nil else { throw AuthError.idpConfigExists }
            return resource
        }
        return try await withSPCertificates(id, saved ?? resource)
    }

    /// Resource `id`, with a SAML provider's `spConfig.spCertificates`.
    /// - Throws: `INVALID_PROVIDER_ID`, `CONFIGURATION_NOT_FOUND`.
    package func get(_ id: String) async throws -> [String: JSONValue] {
        try check(id)
        guard let resource = try await read()[id] else { throw AuthError.idpConfigNotFound }
        return try await withSPCertificates(id, resource)
    }

    /// A SAML provider's resource with its `spConfig.spCertificates` (read, never made); any other resource as it is.
    private func withSPCertificates(_ id: String, _ resource: [String: JSONValue]) async throws -> [String: JSONValue] {
        guard collection == .saml else { return resource }
        return Self.adding(try await spKeys.published(tenant: tenant, providerID: id)[id] ?? [], to: resource)
    }

    /// The resource with the published SP keys' certificates as its `spConfig.spCertificates` (none: as it is).
    private static func adding(_ keys: [SAMLSPKeyRecord], to resource: [String: JSONValue]) -> [String: JSONValue] {
        guard !keys.isEmpty else { return resource }
        var out = resource
        var sp = out["spConfig"]?.objectValue ?? [:]
        sp["spCertificates"] = SAMLServiceProviderKeys.spCertificates(keys)
        out["spConfig"] = .object(sp)
        return out
    }

    /// One page in provider-ID order: up to `pageSize` (``maxPageSize`` when `nil` or 0) after `pageToken` (the last
    /// ID of the page before), and the next page's token when more follow. SAML providers carry their SP certificates.
    package func list(pageSize: Int?, pageToken: String?) async throws -> (resources: [(id: String, resource: [String: JSONValue])], next: String?) {
        if let pageSize, pageSize < 0 { throw AuthError.invalidArgument("Invalid pageSize.") }
        let size = min(pageSize.flatMap { $0 == 0 ? nil : $0 } ?? Self.maxPageSize, Self.maxPageSize)
        let after = pageToken ?? ""
        let resources = try await read()
        let ids = resources.keys.sorted().filter { after.isEmpty || $0 > after }
        var page = ids.prefix(size).map { (id: $0, resource: resources[$0] ?? [:]) }
        if collection == .saml, !page.isEmpty {
            let keys = try await spKeys.published(tenant: tenant)
            page = page.map { ($0.id, Self.adding(keys[$0.id] ?? [], to: $0.resource)) }
        }
        return (page, ids.count > size ? page.last?.id : nil)
    }

    /// Applies a patch to resource `id`: copies each `updateMask` path (without one, each top-level field the patch
    /// sends) from `patch`, a path absent from it cleared.
    /// - Returns: the resource as stored, with a SAML provider's `spConfig.spCertificates`.
    /// - Throws: `INVALID_ARGUMENT` for a path outside the resource's fields, `CONFIGURATION_NOT_FOUND`, `INVALID_CONFIG`.
    package func update(_ id: String, patch: [String: JSONValue], updateMask: [String]?) async throws -> [String: JSONValue] {
        try check(id)
        let patch = Self.writable(patch)
        let paths = updateMask ?? collection.updatablePaths.filter { !$0.contains(".") && patch[$0] != nil }
        for path in paths where !collection.updatablePaths.contains(path) {
            throw AuthError.invalidArgument("Invalid update mask path: \(path)")
        }
        let saved = try await change(id, ["updated": .string(id), "updateMask": .array(paths.map(JSONValue.string))]) { existing in
            guard var resource = existing else { throw AuthError.idpConfigNotFound }
            for path in paths { Self.copy(path, from: patch, into: &resource) }
            return resource
        }
        return try await withSPCertificates(id, saved ?? [:])
    }

    /// Takes one step of SAML provider `id`'s SP key rollover (``SAMLServiceProviderKeys/rotate(tenant:providerID:step:)``).
    /// - Returns: the resource with its `spConfig.spCertificates` after it (the signing key's first).
    /// - Throws: `INVALID_PROVIDER_ID` (not a SAML provider's ID), `CONFIGURATION_NOT_FOUND`, `INVALID_ARGUMENT` for a
    ///   step out of order.
    package func rotateSPKey(_ id: String, step: SAMLServiceProviderKeys.RotationStep) async throws -> [String: JSONValue] {
        try check(id)
        guard collection == .saml else { throw AuthError.invalidProviderID }
        guard let resource = try await read()[id] else { throw AuthError.idpConfigNotFound }
        return Self.adding(try await spKeys.rotate(tenant: tenant, providerID: id, step: step), to: resource)
    }

    /// Deletes resource `id` (a SAML provider's SP keys in the same transaction).
    /// - Throws: `INVALID_PROVIDER_ID`, `CONFIGURATION_NOT_FOUND`.
    package func delete(_ id: String) async throws {
        try check(id)
        _ = try await change(id, ["deleted": .string(id)]) { existing in
            guard existing != nil else { throw AuthError.idpConfigNotFound }
            return nil
        }
    }

    /// The resource as answered: its `name`, then its fields.
    package func answer(_ id: String, _ resource: [String: JSONValue]) -> [String: JSONValue] {
        var out = resource
        out["name"] = .string("\(owner)/\(collection.rawValue)/\(id)")
        return out
    }

    private func check(_ id: String) throws(AuthError) {
        guard collection.accepts(id) else { throw AuthError.invalidProviderID }
    }

    /// What a request body may set: the resource's fields without the output-only `name` and a SAML provider's
    /// `spConfig.spCertificates`.
    private static func writable(_ body: [String: JSONValue]) -> [String: JSONValue] {
        var out = body
        out["name"] = nil
        if var sp = out["spConfig"]?.objectValue {
            sp["spCertificates"] = nil
            out["spConfig"] = .object(sp)
        }
        return out
    }

    /// Copies one dotted path (`responseType.code`) from `patch` into `resource`; a path absent from `patch` or `null`
    /// there (the Admin SDKs' `DELETE_ATTRIBUTE`) is cleared.
    private static func copy(_ path: String, from patch: [String: JSONValue], into resource: inout [String: JSONValue]) {
        let keys = path.split(separator: ".").map(String.init)
        var source: JSONValue? = .object(patch)
        for key in keys { source = source?[key] }
        if source == .null { source = nil }
        guard keys.count == 2 else {
            resource[keys[0]] = source
            return
        }
        var inner = resource[keys[0]]?.objectValue ?? [:]
        inner[keys[1]] = source
        resource[keys[0]] = .object(inner)
    }
}
