package import FlintCore
package import FlintStore

/// The SAML providers' service-provider key pairs: RSA-2048 keys and their self-signed certificates per provider of
/// the project or of a tenant, stored with the private keys sealed (``SecretsAtRest/sealSAMLSPKey(_:tenant:providerID:)``)
/// and shared by every node. A provider's first key is made in the transaction that creates it
/// (``sync(in:tenant:providers:secrets:now:)``); a rollover (``SAMLServiceProviderKeys+Rotation``) adds a key that is
/// published before it signs, then activates it, then retires the old one. The key activated last signs the provider's
/// AuthnRequests when its IdP wants them signed (`idpConfig.signRequest`); the certificates of the keys not retired are
/// the provider's `spConfig.spCertificates`, which the operator gives the IdP. Reads never write, and nothing is
/// cached: a sign-in's start reads its provider's rows.
package struct SAMLServiceProviderKeys: Sendable {
    let store: any AuthStore
    let secrets: SecretsAtRest
    let clock: any WallClock

    /// How long a certificate is valid. IdPs check a request's signature with the key they were given and rarely its
    /// dates; ten years keeps a configured IdP working until the operator rotates.
    static let validity: Duration = .seconds(3_653 * 86_400)

    package init(store: any AuthStore, masterKey: MasterKey?, clock: any WallClock) {
        (self.store, self.secrets, self.clock) = (store, SecretsAtRest(masterKey: masterKey), clock)
    }

    /// A provider's signing key pair, its private key opened.
    package struct KeyPair: Sendable, Equatable {
        /// The private key, PKCS #8 PEM.
        package let privateKeyPEM: String
        /// The self-signed certificate, PEM.
        package let certificatePEM: String
        /// When it was made.
        package let createdAt: Instant
    }

    /// The key pair that signs provider `providerID` of `tenant`'s requests, if it has one.
    /// - Throws: ``MasterKeyError`` for a stored key that does not open; store errors.
    package func signingKey(tenant: TenantID, providerID: String) async throws -> KeyPair? {
        let keys = try await store.read { try await $0.samlSPKeys(tenant: tenant, providerID: providerID) }
        guard let record = Self.published(keys, at: clock.now()).first, record.activatedAt != nil else { return nil }
        return KeyPair(privateKeyPEM: try secrets.openSAMLSPKey(record), certificatePEM: record.certificatePEM, createdAt: record.createdAt)
    }

    /// The published keys of `tenant`'s providers (of provider `providerID` only, when given), by provider, each in
    /// ``published(_:at:)``'s order.
    package func published(tenant: TenantID, providerID: String? = nil) async throws -> [String: [SAMLSPKeyRecord]] {
        let keys = try await store.read { try await $0.samlSPKeys(tenant: tenant, providerID: providerID) }
        let now = clock.now()
        return Dictionary(grouping: keys, by: \.providerID).mapValues { Self.published($0, at: now) }
    }

    /// One provider's keys as published at `now`: those not retired by then, the signing one (the one activated last)
    /// first, so the first certificate always verifies the requests being sent, then the others newest first (a new
    /// key waiting for its activation before an old one waiting for its retirement).
    static func published(_ keys: [SAMLSPKeyRecord], at now: Instant) -> [SAMLSPKeyRecord] {
        let live = keys.filter { $0.retireAt.map { $0 > now } ?? true }.sorted { $0.createdAt > $1.createdAt }
        guard let signing = signing(live) else { return live }
        return [signing] + live.filter { $0 != signing }
    }

    /// The key that signs among `keys`: the one activated last (the newer of two activated at the same instant).
    static func signing(_ keys: [SAMLSPKeyRecord]) -> SAMLSPKeyRecord? {
        keys.compactMap { key in key.activatedAt.map { (activated: $0, key: key) } }
            .max { ($0.activated, $0.key.createdAt) < ($1.activated, $1.key.createdAt) }?.key
    }

    /// The resource's output-only `spConfig.spCertificates`, as Identity Platform answers it: each published
    /// certificate and when it expires, in ``published(_:at:)``'s order.
    static func spCertificates(_ keys: [SAMLSPKeyRecord]) -> JSONValue {
        .array(
            keys.map { ["x509Certificate": .string($0.certificatePEM), "expiresAt": .string(RFC3339.format($0.createdAt + validity))] })
    }

    /// A fresh key pair for the provider made at `now`, its private key sealed; signing since `now` when `activated`.
    static func make(tenant: TenantID, providerID: String, secrets: SecretsAtRest, now: Instant, activated: Bool) throws -> SAMLSPKeyRecord {
        let pair = try RSAKeyPair.generate(commonName: "Flint SAML SP", now: now, validity: validity)
        return SAMLSPKeyRecord(
            tenant: tenant, providerID: providerID,
            privateKeyPEM: try secrets.sealSAMLSPKey(pair.privateKeyPEM, tenant: tenant, providerID: providerID),
            certificatePEM: pair.certificatePEM, createdAt: now, activatedAt: activated ? now : nil)
    }
}

extension Node {
    /// The SAML providers' SP key pairs in this node's store, sealed with its master key.
    package var samlSPKeys: SAMLServiceProviderKeys { SAMLServiceProviderKeys(store: store, masterKey: settings.masterKey, clock: clock) }
}
