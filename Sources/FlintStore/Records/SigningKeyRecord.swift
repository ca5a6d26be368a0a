/// A token-signing key as stored.
public struct SigningKeyRecord: Sendable, Equatable {
    /// Key ID.
    public var kid: String
    /// The private key as stored: its PEM sealed with the operator's master key (`sealed:v1:…`), or the PEM in clear
    /// in a store written before encryption at rest (sealed at the first start with a master key).
    public var privateKeyPEM: String
    /// PEM self-signed certificate.
    public var certificatePEM: String
    /// Milliseconds since epoch.
    public var createdAt: Int64
    /// When it stopped signing (ms), or `nil` for the active key.
    public var retiredAt: Int64?

    /// Creates a record.
    public init(kid: String, privateKeyPEM: String, certificatePEM: String, createdAt: Int64, retiredAt: Int64? = nil) {
        self.kid = kid
        self.privateKeyPEM = privateKeyPEM
        self.certificatePEM = certificatePEM
        self.createdAt = createdAt
        self.retiredAt = retiredAt
    }
}
