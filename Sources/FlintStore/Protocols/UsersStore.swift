public import FlintCore

/// Accounts: the users table, read and locked for read-modify-write. Queries. Every account belongs to a tenant
/// (``TenantID``, the default one unless a request names another): each read names it, and finds only its accounts.
public protocol UsersReads: Sendable {
    /// A user by ID.
    func user(tenant: TenantID, localID: String) async throws -> UserRecord?
    /// A user by E.164 number.
    func user(tenant: TenantID, phoneNumber: String) async throws -> UserRecord?
    /// A user by E.164 number with its federated identities (by provider and raw ID), and the hits of `counters` (as
    /// ``CountersReads/counterValues(_:)`` reads them, in order), all read in one statement: what a phone sign-in
    /// needs for the session's ID token, with its number's wrong-code counters.
    func userWithIdentities(tenant: TenantID, phoneNumber: String, counters: [(key: CounterKey, windowStart: Instant)]) async throws -> (
        found: (user: UserRecord, identities: [FederatedIdentityRecord])?, hits: [Int64]
    )
    /// A user by lower-cased email.
    func user(tenant: TenantID, email: String) async throws -> UserRecord?
    /// Number of the tenant's users.
    func userCount(tenant: TenantID) async throws -> Int
    /// The account whose identity at `providerID` is `rawID` (`federatedUserId`), if one holds it.
    func user(tenant: TenantID, federatedID: FederatedIdentityKey) async throws -> UserRecord?
    /// An account's federated identities, by provider and raw ID.
    func federatedIdentities(tenant: TenantID, localID: String) async throws -> [FederatedIdentityRecord]
    /// The federated identities whose provider gave `email` (as stored: lower-cased by sign-ins), by account, then
    /// provider and raw ID.
    func federatedIdentities(tenant: TenantID, email: String) async throws -> [FederatedIdentityRecord]
    /// The federated identities of the accounts among `localIDs`, by account, each by provider and raw ID.
    func federatedIdentities(tenant: TenantID, localIDs: [String]) async throws -> [String: [FederatedIdentityRecord]]
}

/// Accounts: the users table, read and locked for read-modify-write. Writes, inside a transaction.
public protocol UsersWrites: UsersReads {
    /// A user by ID, locked against concurrent writers until the transaction ends (PostgreSQL `FOR UPDATE`; SQLite
    /// has a single writer). Read-modify-write of a user goes through this, so no update is lost.
    func lockedUser(tenant: TenantID, localID: String) async throws -> UserRecord?
    /// A user by lower-cased email, locked the same way.
    func lockedUser(tenant: TenantID, email: String) async throws -> UserRecord?
    /// A user by E.164 number, locked the same way.
    func lockedUser(tenant: TenantID, phoneNumber: String) async throws -> UserRecord?
    /// Inserts a new user. Throws ``StoreError/conflict(_:)`` (``StoreConflict/localID``,
    /// ``StoreConflict/phoneNumber`` or ``StoreConflict/email``) if the ID, number or email is taken.
    func insertUser(_ user: UserRecord) async throws
    /// Inserts a new user whose number and email this transaction has just found free, reading nothing back: on
    /// PostgreSQL it rides with the transaction's next write (a sign-in's session and audit event). Should a
    /// concurrent transaction take one of them first, the insert's unique violation fails this transaction, which
    /// the store runs again (and which then finds that account).
    func insertFreshUser(_ user: UserRecord) async throws
    /// Rewrites a user row. Throws ``StoreError/conflict(_:)`` (``StoreConflict/phoneNumber``, ``StoreConflict/email``) when another
    /// account has its number or email, ``StoreError/notFound`` if gone.
    func updateUser(_ user: UserRecord) async throws
    /// Records a sign-in (`lastLoginAt`, ms) without rewriting the rest of the row.
    func recordSignIn(tenant: TenantID, localID: String, at: Instant) async throws
    /// Links a federated identity to its account, replacing the account's identity at the same provider. Throws
    /// ``StoreError/conflict(_:)`` (``StoreConflict/federatedIdentity``) if another account holds the provider's raw ID.
    func linkFederatedIdentity(_ identity: FederatedIdentityRecord) async throws
    /// Unlinks an account's identities at `providerIDs`. Returns how many were removed.
    @discardableResult
    func unlinkFederatedIdentities(tenant: TenantID, localID: String, providerIDs: [String]) async throws -> Int
    /// Deletes a user with its refresh tokens, second factors, recovery codes and federated identities. Returns
    /// whether it existed.
    func deleteUser(tenant: TenantID, localID: String) async throws -> Bool
    /// Deletes every user of `tenant` with its refresh tokens, second factors, recovery codes, federated identities and
    /// passkeys.
    func deleteAllUsers(tenant: TenantID) async throws
}

extension UsersReads {
    /// A user by E.164 number with its federated identities, read in one statement.
    public func userWithIdentities(tenant: TenantID, phoneNumber: String) async throws -> (
        user: UserRecord, identities: [FederatedIdentityRecord]
    )? {
        try await userWithIdentities(tenant: tenant, phoneNumber: phoneNumber, counters: []).found
    }
}
