public import FlintCore

/// Node state: the master secret, signing keys, the project config and the schema version. Queries.
public protocol ConfigReads: Sendable {
    /// The stored server secret (base64 of 32 bytes, sealed with the operator's master key since encryption at rest),
    /// if created.
    func masterSecret() async throws -> String?
    /// Every signing key, including retired ones.
    func signingKeys() async throws -> [SigningKeyRecord]
    /// The stored project config document (JSON text), if any.
    func projectConfig() async throws -> String?
    /// A value stored beside the project config (such as the digest of the last applied config file), if any.
    func configMetadata(_ name: String) async throws -> String?
    /// The schema version the database is at.
    func schemaVersion() async throws -> Int
    /// The SAML service-provider keys of provider `providerID` of `tenant` (with `nil`, of each of its providers; with a
    /// `nil` tenant, of every tenant's and the project's), in tenant and provider order, each provider's newest first.
    func samlSPKeys(tenant: TenantID?, providerID: String?) async throws -> [SAMLSPKeyRecord]
}

/// Node state: the master secret, signing keys, the project config and the schema version. Writes, inside a transaction.
public protocol ConfigWrites: ConfigReads {
    /// Stores the server secret unless one exists; returns the one that is stored.
    func ensureMasterSecret(_ candidate: String) async throws -> String
    /// Replaces the stored server secret's value (sealing it, or sealing it again under a new master key).
    func replaceMasterSecret(_ stored: String) async throws
    /// Replaces the stored private key of signing key `kid` (sealing it, or sealing it again under a new master key).
    func replaceSigningPrivateKey(kid: String, with stored: String) async throws
    /// Adds a signing key and, with `retireAt`, retires at that instant every other key not retired by then (the
    /// signing one, and a scheduled one that has not started).
    func addSigningKey(_ key: SigningKeyRecord, retiringOthersAt retireAt: Instant?) async throws
    /// Revokes signing key `kid` at `now` (retiring it then if it was not): it is published and accepted no more.
    /// - Returns: `false` when no unrevoked key has that ID.
    func revokeSigningKey(kid: String, at now: Instant) async throws -> Bool
    /// Clears the retirement of every unrevoked key retired at `instant`: the activation of a scheduled successor
    /// that was revoked before it started, so the key signing until then goes on signing.
    func unretireSigningKeys(retiredAt instant: Instant) async throws
    /// Replaces the project config document.
    func saveProjectConfig(_ json: String) async throws
    /// Sets a value stored beside the project config.
    func saveConfigMetadata(_ name: String, value: String) async throws
    /// Stores a SAML service-provider key.
    /// - Returns: `false` when its provider already has a key made at the same instant (nothing is stored).
    func insertSAMLSPKey(_ record: SAMLSPKeyRecord) async throws -> Bool
    /// Replaces the stored key of the record's provider and creation instant: its private key sealed again, its
    /// activation or retirement.
    /// - Returns: `false` when there is no such key.
    func replaceSAMLSPKey(_ record: SAMLSPKeyRecord) async throws -> Bool
    /// Deletes the key of the record's provider and creation instant, if stored.
    func deleteSAMLSPKey(_ record: SAMLSPKeyRecord) async throws
}
