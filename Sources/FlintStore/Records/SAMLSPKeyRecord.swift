public import FlintCore

/// A SAML provider's service-provider key pair as stored (migration 28's `saml_sp_keys`): the RSA key Flint signs that
/// provider's AuthnRequests with and its self-signed certificate, published as the provider's
/// `spConfig.spCertificates`. One per provider of the project or of a tenant, made once and shared by every node.
public struct SAMLSPKeyRecord: Sendable, Equatable {
    /// The tenant whose provider it is (the default tenant for the project's).
    public var tenant: TenantID
    /// The provider ID (`saml.…`).
    public var providerID: String
    /// The private key as stored: its PEM sealed with the operator's master key (`sealed:v1:…`), or in clear without one.
    public var privateKeyPEM: String
    /// The self-signed certificate, PEM.
    public var certificatePEM: String
    /// When the key was made.
    public var createdAt: Instant

    public init(tenant: TenantID, providerID: String, privateKeyPEM: String, certificatePEM: String, createdAt: Instant) {
        self.tenant = tenant
        self.providerID = providerID
        self.privateKeyPEM = privateKeyPEM
        self.certificatePEM = certificatePEM
        self.createdAt = createdAt
    }
}
