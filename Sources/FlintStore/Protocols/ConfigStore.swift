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
    /// The SAML service-provider key of provider `providerID` of `tenant`, if made.
    func samlSPKey(tenant: TenantID, providerID: String) async throws -> SAMLSPKeyRecord?
    /// The SAML service-provider keys of `tenant`'s providers, or with `nil` of every tenant's and the project's, in
    /// tenant and provider order.
    func samlSPKeys(tenant: TenantID?) async throws -> [SAMLSPKeyRecord]
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
    /// Stores a SAML service-provider key unless its provider has one; returns the one that is stored.
    func ensureSAMLSPKey(_ candidate: SAMLSPKeyRecord) async throws -> SAMLSPKeyRecord
    /// Replaces the key of the record's provider (its private key sealed again, or a new key pair).
    /// - Returns: `false` when the provider has no key.
    func replaceSAMLSPKey(_ record: SAMLSPKeyRecord) async throws -> Bool
}
