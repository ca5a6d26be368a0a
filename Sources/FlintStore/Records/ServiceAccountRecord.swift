public import FlintCore

/// A service account whose key signs custom tokens Flint accepts (`flint admin service-accounts create`). Only the
/// public half of its key is stored; the private half is in the service-account file written for its owner.
public struct ServiceAccountRecord: Sendable, Equatable {
    /// The key's ID (`private_key_id` in the file, `kid` in the tokens it signs).
    public var keyID: String
    /// The operator's name for it (`NAME` in `NAME@PROJECT.iam.gserviceaccount.com`).
    public var name: String
    /// `client_email`: the `iss` and `sub` of the tokens it signs.
    public var clientEmail: String
    /// `client_id`, as the file carries it.
    public var clientID: String
    /// The public key, SPKI PEM.
    public var publicKeyPEM: String
    /// Creation time.
    public var createdAt: Instant
    /// When it was revoked; a revoked key signs nothing Flint accepts.
    public var revokedAt: Instant?

    /// Creates a record.
    public init(
        keyID: String, name: String, clientEmail: String, clientID: String, publicKeyPEM: String, createdAt: Instant, revokedAt: Instant? = nil
    ) {
        self.keyID = keyID
        self.name = name
        self.clientEmail = clientEmail
        self.clientID = clientID
        self.publicKeyPEM = publicKeyPEM
        self.createdAt = createdAt
        self.revokedAt = revokedAt
    }
}
