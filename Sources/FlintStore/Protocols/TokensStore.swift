public import FlintCore

/// Sessions: refresh tokens, stored by the hash of their value. Queries.
public protocol TokensReads: Sendable {
    /// A refresh token by the hash of its value (unique across tenants); the record names its tenant.
    func refreshToken(hash: String) async throws -> RefreshTokenRecord?
    /// A refresh token by the hash of its value with its account in the token's tenant (`nil` when the account is gone) and whether the account
    /// has federated identities (which its ID tokens list), in one statement: what a token refresh reads.
    func refreshSession(hash: String) async throws -> (token: RefreshTokenRecord, user: UserRecord?, hasIdentities: Bool)?
    /// The account's sessions (its refresh tokens), most recently used first.
    func sessions(tenant: TenantID, localID: String) async throws -> [RefreshTokenRecord]
    /// The account and whether its session `sessionID` still exists, in one statement: what checking an ID token that
    /// names its session reads.
    func userWithSession(tenant: TenantID, localID: String, sessionID: String) async throws -> (user: UserRecord, sessionLive: Bool)?
    /// The account's session `sessionID` (its refresh token), or `nil` when it has ended.
    func session(tenant: TenantID, localID: String, sessionID: String) async throws -> RefreshTokenRecord?
    /// Whether the account's session `sessionID` still exists.
    func sessionExists(tenant: TenantID, localID: String, sessionID: String) async throws -> Bool
}

/// Sessions: refresh tokens, stored by the hash of their value. Writes, inside a transaction.
public protocol TokensWrites: TokensReads {
    /// Stores a refresh token.
    func insertRefreshToken(_ token: RefreshTokenRecord) async throws
    /// Deletes the user's refresh tokens — all of them, or those created before `cutoff` — and returns how
    /// many went. Revocation goes through this, so a revoked session ends in the store, not by clock comparison.
    func deleteRefreshTokens(tenant: TenantID, localID: String, createdBefore cutoff: Instant?) async throws -> Int
    /// Records a refresh (`lastRefreshAt`, ms).
    func touchRefresh(tenant: TenantID, localID: String, at: Instant) async throws
    /// Ends one session of the account (deletes its refresh token); whether it existed.
    func deleteSession(tenant: TenantID, localID: String, sessionID: String) async throws -> Bool
    /// Ends every session of the account but `sessionID`; how many went.
    func deleteSessions(tenant: TenantID, localID: String, except sessionID: String) async throws -> Int
    /// Records a session's use: its last-used time and, when known, the address it came from.
    func touchSession(hash: String, at: Instant, ip: String?) async throws
}
