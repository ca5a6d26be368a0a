public import FlintCore

/// A token-signing key as stored. It is published from `createdAt`, signs from `activatesAt` until `retiredAt`, and
/// stays published after that until the tokens it signed have expired, unless revoked (`revokedAt`): then it is
/// published no more.
public struct SigningKeyRecord: Sendable, Equatable {
    /// Key ID.
    public var kid: String
    /// The private key as stored: its PEM sealed with the operator's master key (`sealed:v1:…`), or the PEM in clear
    /// in a store written before encryption at rest (sealed at the first start with a master key).
    public var privateKeyPEM: String
    /// PEM self-signed certificate.
    public var certificatePEM: String
    /// Creation time, from which the key is published.
    public var createdAt: Instant
    /// When it starts signing: its creation for the first key and an emergency key, later for a scheduled one.
    public var activatesAt: Instant
    /// When it stops signing (its successor's activation, or a revocation), or `nil` while no successor is scheduled.
    public var retiredAt: Instant?
    /// When it was revoked (a leaked key): from then on it is neither published nor accepted.
    public var revokedAt: Instant?

    /// Creates a record; `activatesAt` defaults to `createdAt`.
    public init(
        kid: String, privateKeyPEM: String, certificatePEM: String, createdAt: Instant, activatesAt: Instant? = nil, retiredAt: Instant? = nil,
        revokedAt: Instant? = nil
    ) {
        self.kid = kid
        self.privateKeyPEM = privateKeyPEM
        self.certificatePEM = certificatePEM
        self.createdAt = createdAt
        self.activatesAt = activatesAt ?? createdAt
        self.retiredAt = retiredAt
        self.revokedAt = revokedAt
    }
}

extension SigningKeyRecord: KeySchedule {}
