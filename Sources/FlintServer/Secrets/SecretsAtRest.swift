public import FlintCore
public import FlintStore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// How a node keeps its secrets in the store: the server secret (the root of code HMACs, session handles and sealed
/// tokens) and the signing keys' private halves (the token-signing keys', the SAML providers' SP keys') are sealed with the operator's ``MasterKey`` (``SealedSecret``), so
/// the database alone yields neither. Without a master key (tests, embedders with a throwaway store) they are kept in
/// clear, as stores made before encryption at rest kept them; such values are read either way and sealed at the first
/// start that has a key.
public struct SecretsAtRest: Sendable {
    /// The key secrets are sealed with, or `nil` to keep new ones in clear.
    public let masterKey: MasterKey?

    /// Secrets sealed with `masterKey`.
    public init(masterKey: MasterKey?) {
        self.masterKey = masterKey
    }

    /// The name the server secret's envelope is bound to.
    static let serverSecretName = "server-secret"

    /// The name a signing key's envelope is bound to.
    static func signingKeyName(_ kid: String) -> String { "signing-key:" + kid }

    /// The stored form of a server secret.
    func sealServerSecret(_ bytes: [UInt8]) throws -> String {
        let text = Data(bytes).base64EncodedString()
        guard let masterKey else { return text }
        return try SealedSecret.seal(Array(text.utf8), name: Self.serverSecretName, with: masterKey)
    }

    /// The server secret's 32 bytes from their stored form.
    /// - Throws: ``MasterKeyError`` when it is sealed with another key or does not open.
    package func openServerSecret(_ stored: String) throws -> [UInt8] {
        let text = String(decoding: try SealedSecret.open(stored, name: Self.serverSecretName, with: masterKey), as: UTF8.self)
        guard let bytes = Data(base64Encoded: text), bytes.count == 32 else { throw MasterKeyError.damaged(Self.serverSecretName) }
        return [UInt8](bytes)
    }

    /// The stored form of signing key `kid`'s private PEM.
    func sealPrivateKey(_ pem: String, kid: String) throws -> String {
        guard let masterKey else { return pem }
        return try SealedSecret.seal(Array(pem.utf8), name: Self.signingKeyName(kid), with: masterKey)
    }

    /// Signing key `kid`'s private PEM from its stored form.
    /// - Throws: ``MasterKeyError`` when it is sealed with another key or does not open.
    package func openPrivateKey(_ stored: String, kid: String) throws -> String {
        String(decoding: try SealedSecret.open(stored, name: Self.signingKeyName(kid), with: masterKey), as: UTF8.self)
    }

    /// Checks, inside `tx`, that every stored secret (the identity providers' in the config too) opens with this master
    /// key, and seals those kept in clear (a store made before encryption at rest, or one used without a key): all of
    /// them in this one transaction.
    /// - Returns: how many values were sealed.
    /// - Throws: ``MasterKeyError`` when a stored secret was sealed with another key (or none is given), or is damaged;
    ///   nothing is written then.
    func sealValuesInClear(in tx: any ConfigWrites & WebhooksWrites & TenantsWrites) async throws -> Int {
        var sealed = 0
        if let stored = try await tx.masterSecret() {
            let bytes = try openServerSecret(stored)
            if !SealedSecret.isSealed(stored), masterKey != nil {
                try await tx.replaceMasterSecret(try sealServerSecret(bytes))
                sealed += 1
            }
        }
        for record in try await tx.signingKeys() {
            let pem = try openPrivateKey(record.privateKeyPEM, kid: record.kid)
            if !SealedSecret.isSealed(record.privateKeyPEM), masterKey != nil {
                try await tx.replaceSigningPrivateKey(kid: record.kid, with: try sealPrivateKey(pem, kid: record.kid))
                sealed += 1
            }
        }
        return sealed + (try await sealConfigSecretsInClear(in: tx)) + (try await sealTenantSecretsInClear(in: tx))
            + (try await sealWebhookSecretsInClear(in: tx)) + (try await sealSAMLSPKeysInClear(in: tx))
    }

    /// Seals every stored secret again under `newKey`, in one transaction; values are opened with this master key
    /// (or read in clear).
    /// - Returns: how many values were sealed under the new key.
    /// - Throws: ``MasterKeyError`` when a stored secret does not open with this key; nothing is written then.
    public func rewrap(store: any AuthStore, to newKey: MasterKey) async throws -> Int {
        let next = SecretsAtRest(masterKey: newKey)
        let count = try await store.write { tx in
            try await rewrapValues(in: tx, to: next)
        }
        await store.announce(.keys)
        return count
    }

    /// Seals the server secret, the signing keys, the config's, the tenants', the webhook subscriptions' secrets and the
    /// SAML providers' SP keys again
    /// under `next`, inside `tx`.
    private func rewrapValues(in tx: any ConfigWrites & WebhooksWrites & TenantsWrites, to next: SecretsAtRest) async throws -> Int {
        var count = 0
        if let stored = try await tx.masterSecret() {
            try await tx.replaceMasterSecret(try next.sealServerSecret(try openServerSecret(stored)))
            count += 1
        }
        for record in try await tx.signingKeys() {
            let pem = try openPrivateKey(record.privateKeyPEM, kid: record.kid)
            try await tx.replaceSigningPrivateKey(kid: record.kid, with: try next.sealPrivateKey(pem, kid: record.kid))
            count += 1
        }
        return count + (try await rewrapConfigSecrets(in: tx, to: next)) + (try await rewrapTenantSecrets(in: tx, to: next))
            + (try await rewrapWebhookSecrets(in: tx, to: next)) + (try await rewrapSAMLSPKeys(in: tx, to: next))
    }
}
