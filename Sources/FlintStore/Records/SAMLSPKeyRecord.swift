public import FlintCore

/// A SAML provider's service-provider key pair as stored (`saml_sp_keys`, migrations 28 and 29): an RSA key Flint
/// signs that provider's AuthnRequests with and its self-signed certificate, published in the provider's
/// `spConfig.spCertificates`. A provider has one key, or during a rollover two or more: the new one published before
/// it signs, the old one published after it stopped signing until it is retired. A key is known by its provider and
/// its creation instant; every node reads the same rows.
public struct SAMLSPKeyRecord: Sendable, Equatable {
    /// The tenant whose provider it is (the default tenant for the project's).
    public var tenant: TenantID
    /// The provider ID (`saml.…`).
    public var providerID: String
    /// The private key as stored: its PEM sealed with the operator's master key (`sealed:v1:…`), or in clear without one.
    public var privateKeyPEM: String
    /// The self-signed certificate, PEM.
    public var certificatePEM: String
    /// When the key was made: with the tenant and provider, the key's identity.
    public var createdAt: Instant
    /// Since when it may sign (`nil`: made by a rotation and published, not signing yet). The provider's key activated
    /// last signs.
    public var activatedAt: Instant?
    /// When it stops being published (`nil`: not scheduled); a key past it is deleted by the next write of its
    /// provider's keys.
    public var retireAt: Instant?

    public init(
        tenant: TenantID, providerID: String, privateKeyPEM: String, certificatePEM: String, createdAt: Instant, activatedAt: Instant?,
        retireAt: Instant? = nil
    ) {
        self.tenant = tenant
        self.providerID = providerID
        self.privateKeyPEM = privateKeyPEM
        self.certificatePEM = certificatePEM
        self.createdAt = createdAt
        self.activatedAt = activatedAt
        self.retireAt = retireAt
    }
}
