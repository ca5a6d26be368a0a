package import FlintCore
package import FlintStore

/// The SAML providers' service-provider key pairs: an RSA-2048 key and its self-signed certificate per provider of the
/// project or of a tenant, made at the provider's creation (or at its first use, for a provider configured before),
/// stored with the private key sealed (``SecretsAtRest/sealSAMLSPKey(_:tenant:providerID:)``), and shared by every
/// node: the first node to store one wins, the others use it. The key signs the provider's AuthnRequests when its IdP
/// wants them signed (`idpConfig.signRequest`); the certificate is the provider's `spConfig.spCertificates`, which
/// the operator gives the IdP. Nothing is cached: a sign-in's start reads its provider's row.
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

    /// A provider's key pair, its private key opened.
    package struct KeyPair: Sendable, Equatable {
        /// The private key, PKCS #8 PEM.
        package let privateKeyPEM: String
        /// The self-signed certificate, PEM.
        package let certificatePEM: String
        /// When it was made.
        package let createdAt: Instant
    }

    /// The key pair of provider `providerID` of `tenant`, made and stored if it has none.
    /// - Throws: ``MasterKeyError`` for a stored key that does not open; store errors.
    package func keyPair(tenant: TenantID, providerID: String) async throws -> KeyPair {
        if let stored = try await store.read({ try await $0.samlSPKey(tenant: tenant, providerID: providerID) }) {
            return try opened(stored)
        }
        let candidate = try make(tenant: tenant, providerID: providerID)
        return try opened(try await store.write { tx in try await tx.ensureSAMLSPKey(candidate) })
    }

    /// The providers of `tenant` that have a key pair, with their certificates (for a list, which makes none).
    package func certificates(tenant: TenantID) async throws -> [String: SAMLSPKeyRecord] {
        let keys = try await store.read { try await $0.samlSPKeys(tenant: tenant) }
        return Dictionary(keys.map { ($0.providerID, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Replaces provider `providerID`'s key pair by a new one, which signs its requests from now on: the IdP must be
    /// given the new certificate. Audited (`CONFIG_CHANGED`, `samlSPKeyRotated`) in its transaction.
    /// - Returns: the new key pair.
    package func rotate(tenant: TenantID, providerID: String) async throws -> KeyPair {
        let next = try make(tenant: tenant, providerID: providerID)
        let now = clock.now()
        try await store.write { tx in
            if !(try await tx.replaceSAMLSPKey(next)) { _ = try await tx.ensureSAMLSPKey(next) }
            var detail: [String: JSONValue] = ["samlSPKeyRotated": .string(providerID)]
            if !tenant.isDefault { detail["tenantId"] = .string(tenant.rawValue) }
            try await tx.audit(.configChanged, uid: nil, at: now, detail)
        }
        return try opened(next)
    }

    /// The resource's output-only `spConfig.spCertificates`, as Identity Platform answers it: the certificate and when
    /// it expires.
    static func spCertificates(_ certificatePEM: String, createdAt: Instant) -> JSONValue {
        [["x509Certificate": .string(certificatePEM), "expiresAt": .string(RFC3339.format(createdAt + validity))]]
    }

    /// A fresh key pair for the provider, its private key sealed.
    private func make(tenant: TenantID, providerID: String) throws -> SAMLSPKeyRecord {
        let now = clock.now()
        let pair = try RSAKeyPair.generate(commonName: "Flint SAML SP", now: now, validity: Self.validity)
        return SAMLSPKeyRecord(
            tenant: tenant, providerID: providerID,
            privateKeyPEM: try secrets.sealSAMLSPKey(pair.privateKeyPEM, tenant: tenant, providerID: providerID),
            certificatePEM: pair.certificatePEM, createdAt: now)
    }

    private func opened(_ record: SAMLSPKeyRecord) throws -> KeyPair {
        KeyPair(privateKeyPEM: try secrets.openSAMLSPKey(record), certificatePEM: record.certificatePEM, createdAt: record.createdAt)
    }
}

extension Node {
    /// The SAML providers' SP key pairs in this node's store, sealed with its master key.
    package var samlSPKeys: SAMLServiceProviderKeys { SAMLServiceProviderKeys(store: store, masterKey: settings.masterKey, clock: clock) }
}
