/// Passkeys (WebAuthn credentials). Queries.
public protocol PasskeysReads: Sendable {
    /// An account's passkeys, oldest first.
    func passkeys(tenant: TenantID, localID: String) async throws -> [PasskeyRecord]
    /// The passkeys of several accounts (listings), each account's oldest first, by local ID.
    func passkeys(tenant: TenantID, localIDs: [String]) async throws -> [String: [PasskeyRecord]]
    /// A passkey by credential ID, in `tenant`.
    func passkey(tenant: TenantID, credentialID: String) async throws -> PasskeyRecord?
}

/// Passkeys (WebAuthn credentials). Writes, inside a transaction.
public protocol PasskeysWrites: PasskeysReads {
    /// Adds a passkey. Throws ``StoreError/conflict(_:)`` (``StoreConflict/passkey``) when its credential ID is enrolled already (on any account of its tenant).
    func insertPasskey(_ passkey: PasskeyRecord) async throws
    /// Moves a passkey's signature counter from `old` to `new` in one conditional statement; `false` when the stored
    /// counter is no longer `old` (a concurrent sign-in with the same counter value: only one wins).
    func advancePasskeyCounter(tenant: TenantID, credentialID: String, from old: Int64, to new: Int64) async throws -> Bool
    /// Removes passkeys of an account; returns the credential IDs removed.
    func deletePasskeys(tenant: TenantID, localID: String, credentialIDs: [String]) async throws -> [String]
}
