import FlintCore
import FlintStore

/// The identity providers' secrets kept in the project config document (an OIDC provider's or Google's
/// `clientSecret`, Sign in with Apple's `appleSignInConfig.codeFlowConfig.privateKey`) are sealed in the stored
/// document as the other store secrets are, each bound to its provider and field; the node's config (and the admin
/// API, which answers them as Identity Platform does) holds them open.
extension SecretsAtRest {
    /// The secret fields of a provider resource, as key paths.
    static let configSecretPaths: [[String]] = [["clientSecret"], ["appleSignInConfig", "codeFlowConfig", "privateKey"]]

    /// The name a config secret's envelope is bound to: `idp-secret:COLLECTION/PROVIDER:PATH` for the project's,
    /// `idp-secret:tenants/TENANT/COLLECTION/PROVIDER:PATH` for a tenant's (`owner` `tenants/TENANT`).
    static func configSecretName(collection: ProjectConfig.IdpCollection, providerID: String, path: [String], owner: String? = nil) -> String {
        "idp-secret:\(owner.map { $0 + "/" } ?? "")\(collection.rawValue)/\(providerID):\(path.joined(separator: "."))"
    }

    /// `document` (the project's config, or the tenant `owner` names) with each provider secret replaced by
    /// `transform(stored, name)`.
    static func mappingConfigSecrets(
        _ document: [String: JSONValue], owner: String? = nil, _ transform: (_ stored: String, _ name: String) throws -> String
    ) rethrows -> [String: JSONValue] {
        var out = document
        for collection in ProjectConfig.IdpCollection.allCases {
            guard var providers = document[collection.rawValue]?.objectValue else { continue }
            for (providerID, resource) in providers {
                var value = resource
                for path in configSecretPaths {
                    guard case .string(let stored)? = path.reduce(Optional(value), { $0?[$1] }) else { continue }
                    let name = configSecretName(collection: collection, providerID: providerID, path: path, owner: owner)
                    setting(.string(try transform(stored, name)), at: path[...], in: &value)
                }
                providers[providerID] = value
            }
            out[collection.rawValue] = .object(providers)
        }
        return out
    }

    /// Sets the member at `path` of an object (the path exists: its value was read).
    private static func setting(_ new: JSONValue, at path: ArraySlice<String>, in value: inout JSONValue) {
        guard let key = path.first, var members = value.objectValue else { return }
        if path.count == 1 {
            members[key] = new
        } else if var inner = members[key] {
            setting(new, at: path.dropFirst(), in: &inner)
            members[key] = inner
        }
        value = .object(members)
    }

    /// The stored form of a config document (the project's, or the tenant `owner` names): its provider secrets sealed
    /// with the master key (kept as they are without one, and when sealed already).
    func sealConfigSecrets(_ document: [String: JSONValue], owner: String? = nil) throws -> [String: JSONValue] {
        guard let masterKey else { return document }
        return try Self.mappingConfigSecrets(document, owner: owner) { stored, name in
            guard !stored.isEmpty, !SealedSecret.isSealed(stored) else { return stored }
            return try SealedSecret.seal(Array(stored.utf8), name: name, with: masterKey)
        }
    }

    /// A stored config document with its provider secrets opened. Without a master key a sealed value is kept
    /// sealed (the command line's view of a store it has no key for; a node without the key does not start).
    /// A value still in clear (stored before it was sealed) is read as it is and sealed by the next write.
    /// - Throws: ``MasterKeyError`` when a value is sealed with another key or does not open.
    func openConfigSecrets(_ document: [String: JSONValue], owner: String? = nil) throws -> [String: JSONValue] {
        guard let masterKey else { return document }
        return try Self.mappingConfigSecrets(document, owner: owner) { stored, name in
            String(decoding: try SealedSecret.open(stored, name: name, with: masterKey), as: UTF8.self)
        }
    }

    /// Every provider secret's stored value in a config text.
    static func storedConfigSecrets(_ text: String?) -> [String] {
        guard let document = ConfigCache.parse(text) else { return [] }
        var found: [String] = []
        _ = mappingConfigSecrets(document) { stored, _ in
            found.append(stored)
            return stored
        }
        return found
    }

    /// Inside `tx`: checks that the stored config's provider secrets open with this key (none given: that none is
    /// sealed), and writes the config again with those in clear sealed, when there is a key.
    /// - Returns: how many values were sealed.
    func sealConfigSecretsInClear(in tx: any ConfigWrites) async throws -> Int {
        guard let document = ConfigCache.parse(try await tx.projectConfig()) else { return 0 }
        let inClear = try checkConfigSecrets(document)
        guard inClear > 0, masterKey != nil else { return 0 }
        try await tx.saveProjectConfig(try ConfigCache.encode(sealConfigSecrets(document)))
        return inClear
    }

    /// Checks that a stored document's provider secrets open with this key (none given: that none is sealed).
    /// - Returns: how many are in clear.
    func checkConfigSecrets(_ document: [String: JSONValue], owner: String? = nil) throws -> Int {
        var inClear = 0
        _ = try Self.mappingConfigSecrets(document, owner: owner) { stored, name in
            _ = try SealedSecret.open(stored, name: name, with: masterKey)
            if !stored.isEmpty, !SealedSecret.isSealed(stored) { inClear += 1 }
            return stored
        }
        return inClear
    }

    /// Inside `tx`: seals the stored config's provider secrets again under `next`'s key (opened with this one).
    /// - Returns: how many values were sealed under the new key.
    func rewrapConfigSecrets(in tx: any ConfigWrites, to next: SecretsAtRest) async throws -> Int {
        guard let document = ConfigCache.parse(try await tx.projectConfig()) else { return 0 }
        let (rewrapped, count) = try rewrappingConfigSecrets(document, to: next)
        if count > 0 { try await tx.saveProjectConfig(try ConfigCache.encode(rewrapped)) }
        return count
    }

    /// `document` with its provider secrets sealed under `next`'s key (opened with this one), and how many there were.
    func rewrappingConfigSecrets(
        _ document: [String: JSONValue], owner: String? = nil, to next: SecretsAtRest
    ) throws -> (document: [String: JSONValue], count: Int) {
        var count = 0
        let rewrapped = try Self.mappingConfigSecrets(document, owner: owner) { stored, name in
            guard !stored.isEmpty, let nextKey = next.masterKey else { return stored }
            count += 1
            return try SealedSecret.seal(try SealedSecret.open(stored, name: name, with: masterKey), name: name, with: nextKey)
        }
        return (rewrapped, count)
    }
}
