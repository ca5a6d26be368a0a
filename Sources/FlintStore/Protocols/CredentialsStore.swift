public import FlintCore

/// Credentials of the project's operators and backends: service accounts whose keys sign custom tokens, and named
/// admin bearer credentials (stored by the hash of their secret). Queries.
public protocol CredentialsReads: Sendable {
    /// Every service-account key, revoked ones too, oldest first.
    func serviceAccounts() async throws -> [ServiceAccountRecord]
    /// The keys (revoked ones too) of the service account whose `client_email` is `clientEmail`.
    func serviceAccounts(clientEmail: String) async throws -> [ServiceAccountRecord]
    /// Every named admin credential, revoked ones too, oldest first.
    func adminCredentials() async throws -> [AdminCredentialRecord]
    /// The admin credential whose secret hashes to `secretHash`, revoked or not.
    func adminCredential(secretHash: String) async throws -> AdminCredentialRecord?
}

/// Credentials of the project's operators and backends. Writes, inside a transaction.
public protocol CredentialsWrites: CredentialsReads {
    /// Stores a service-account key. Throws ``StoreError/conflict(_:)`` (``StoreConflict/credentialName``) when an
    /// unrevoked account has its name, (``StoreConflict/keyID``) when the key ID is taken.
    func insertServiceAccount(_ account: ServiceAccountRecord) async throws
    /// Revokes the unrevoked key of the service account `name` at `at`; returns whether there was one.
    func revokeServiceAccount(name: String, at: Instant) async throws -> Bool
    /// Stores an admin credential. Throws ``StoreError/conflict(_:)`` (``StoreConflict/credentialName``) when an
    /// unrevoked credential has its name.
    func insertAdminCredential(_ credential: AdminCredentialRecord) async throws
    /// Revokes the unrevoked admin credential `name` at `at`; returns whether there was one.
    func revokeAdminCredential(name: String, at: Instant) async throws -> Bool
    /// Sets the tenant limit of the unrevoked admin credential `name` (``AdminCredentialRecord/tenants``; `nil` lifts
    /// it); answers the credential as changed, `nil` when there is none.
    func setAdminCredentialTenants(name: String, tenants: [TenantID]?) async throws -> AdminCredentialRecord?
}
