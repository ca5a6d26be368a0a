import FlintCore
package import FlintStore

/// A SAML provider's SP key rollover, in three steps as IdP and SP keys are rolled over, each one transaction with its
/// `CONFIG_CHANGED` event and nothing held outside the store, so any node may take any step:
/// 1. ``stage(tenant:providerID:)`` adds a new key, published at once (`spConfig.spCertificates`) while the old one
///    goes on signing: the operator gives the IdP the new certificate beside the old one;
/// 2. ``activate(tenant:providerID:retireAfter:)`` makes it the signing key; the old one stays published (an IdP
///    may still be checking a request it signed), until
/// 3. ``retire(tenant:providerID:)`` deletes the keys older than the signing one, or the retirement the activation
///    scheduled (`retireAfter`) passes: it is published no more and goes with the provider's next key write.
extension SAMLServiceProviderKeys {
    /// A step of a rollover.
    package enum RotationStep: Sendable, Equatable {
        /// Adds a new key, published and not signing.
        case stage
        /// The new key signs; the old ones retire after the overlap, or when retired (`nil`).
        case activate(retireAfter: Duration?)
        /// The keys older than the signing one are deleted.
        case retire
    }

    /// Takes one step of provider `providerID`'s rollover.
    /// - Returns: the provider's keys as published after it.
    /// - Throws: `INVALID_ARGUMENT` for a step out of order (a second new key before the first is activated, an
    ///   activation without a new key, a retirement without an old key).
    package func rotate(tenant: TenantID, providerID: String, step: RotationStep) async throws -> [SAMLSPKeyRecord] {
        let now = clock.now()
        // The new key is made before the transaction, which then only stores it.
        let fresh = step == .stage ? try Self.make(tenant: tenant, providerID: providerID, secrets: secrets, now: now, activated: false) : nil
        return try await store.write { tx in
            var keys = try await Self.purgeRetired(try await tx.samlSPKeys(tenant: tenant, providerID: providerID), at: now, in: tx)
            let name = "SAML provider \(providerID)"
            var detail: [String: JSONValue] = [:]
            switch step {
            case .stage:
                guard var fresh else { throw AuthError.internalError }
                if keys.contains(where: { $0.activatedAt == nil }) {
                    throw AuthError.invalidArgument("\(name) has a new SP key waiting: activate it first.")
                }
                // A provider without a key (made before keys were) gets one that signs at once; a key's instant is
                // its identity, so the new one is made after the newest.
                if keys.isEmpty { fresh.activatedAt = now }
                if let newest = keys.map(\.createdAt).max(), fresh.createdAt <= newest { fresh.createdAt = newest + .milliseconds(1) }
                guard try await tx.insertSAMLSPKey(fresh) else { throw AuthError.internalError }
                keys.append(fresh)
                detail["samlSPKeyStaged"] = .string(providerID)
            case .activate(let overlap):
                guard let index = keys.indices.filter({ keys[$0].activatedAt == nil }).max(by: { keys[$0].createdAt < keys[$1].createdAt })
                else { throw AuthError.invalidArgument("\(name) has no new SP key to activate: rotate its key first.") }
                keys[index].activatedAt = now
                _ = try await tx.replaceSAMLSPKey(keys[index])
                if let overlap {
                    for older in keys.indices where keys[older].createdAt < keys[index].createdAt {
                        keys[older].retireAt = min(keys[older].retireAt ?? now + overlap, now + overlap)
                        _ = try await tx.replaceSAMLSPKey(keys[older])
                    }
                }
                detail["samlSPKeyActivated"] = .string(providerID)
            case .retire:
                guard let signing = Self.signing(keys), keys.contains(where: { $0.createdAt < signing.createdAt }) else {
                    throw AuthError.invalidArgument("\(name) has no SP key older than its signing key to retire.")
                }
                let old = keys.filter { $0.createdAt < signing.createdAt }
                for key in old { try await tx.deleteSAMLSPKey(key) }
                keys.removeAll { $0.createdAt < signing.createdAt }
                detail["samlSPKeysRetired"] = .string(providerID)
                detail["retired"] = .number(Double(old.count))
            }
            if !tenant.isDefault { detail["tenantId"] = .string(tenant.rawValue) }
            try await tx.audit(.configChanged, uid: nil, at: now, detail)
            return Self.published(keys, at: now)
        }
    }

    /// Deletes the keys among `keys` whose retirement has come.
    /// - Returns: the others.
    static func purgeRetired(_ keys: [SAMLSPKeyRecord], at now: Instant, in tx: any ConfigWrites) async throws -> [SAMLSPKeyRecord] {
        for key in keys where key.retireAt.map({ $0 <= now }) ?? false { try await tx.deleteSAMLSPKey(key) }
        return keys.filter { $0.retireAt.map { $0 > now } ?? true }
    }
}
