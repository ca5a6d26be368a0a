import FlintCore
public import FlintStore

/// What `flint doctor` reports about the secrets in a store (the server secret, the signing keys, the identity
/// providers' secrets in the config and the tenants', the webhook subscriptions', the SAML SP keys): how many are kept in clear and which master keys sealed the others. Read
/// without any key.
public struct SecretsStatus: Sendable, Equatable {
    /// Stored secrets kept in clear (a store not yet started with a master key).
    public var inClear: Int
    /// Sealed secrets per master key ID.
    public var sealedByKey: [String: Int]

    /// Reads the status of `store`'s secrets.
    public static func read(from store: any AuthStore) async throws -> SecretsStatus {
        var status = SecretsStatus(inClear: 0, sealedByKey: [:])
        let (server, keys, config, webhooks, tenants, spKeys) = try await store.read { r in
            (
                try await r.masterSecret(), try await r.signingKeys(), try await r.projectConfig(), try await r.webhookSubscriptions(),
                try await SecretsAtRest.allTenants(in: r), try await r.samlSPKeys(tenant: nil, providerID: nil)
            )
        }
        let providerSecrets = ([config] + tenants.map(\.document)).flatMap(SecretsAtRest.storedConfigSecrets).filter { !$0.isEmpty }
        for stored
            in ([server].compactMap { $0 } + keys.map(\.privateKeyPEM) + providerSecrets + webhooks.map(\.secret) + spKeys.map(\.privateKeyPEM))
        {
            if let id = SealedSecret.keyID(of: stored) {
                status.sealedByKey[id, default: 0] += 1
            } else {
                status.inClear += 1
            }
        }
        return status
    }
}
