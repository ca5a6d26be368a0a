public import FlintCore

/// Node state: the master secret, signing keys, the project config and the schema version. Queries.
public protocol ConfigReads: Sendable {
    /// The stored master secret, if created.
    func masterSecret() async throws -> [UInt8]?
    /// Every signing key, including retired ones.
    func signingKeys() async throws -> [SigningKeyRecord]
    /// The stored project config document (JSON text), if any.
    func projectConfig() async throws -> String?
    /// A value stored beside the project config (such as the digest of the last applied config file), if any.
    func configMetadata(_ name: String) async throws -> String?
    /// The schema version the database is at.
    func schemaVersion() async throws -> Int
}

/// Node state: the master secret, signing keys, the project config and the schema version. Writes, inside a transaction.
public protocol ConfigWrites: ConfigReads {
    /// Stores the master secret unless one exists; returns the one that is stored.
    func ensureMasterSecret(_ candidate: [UInt8]) async throws -> [UInt8]
    /// Adds a signing key and retires every other active key at `retireAt`.
    func addSigningKey(_ key: SigningKeyRecord, retiringOthersAt retireAt: Instant?) async throws
    /// Replaces the project config document.
    func saveProjectConfig(_ json: String) async throws
    /// Sets a value stored beside the project config.
    func saveConfigMetadata(_ name: String, value: String) async throws
}
