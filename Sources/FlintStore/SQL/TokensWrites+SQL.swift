import FlintCore

/// A refresh token's statement texts, computed once (a protocol extension keeps no stored values).
enum RefreshTokenRows {
    /// A refresh token's columns, its account and creation time named apart from an account's.
    static let columns = """
        t.token_hash, t.tenant_id AS token_tenant_id, t.local_id AS token_local_id, t.created_at AS token_created_at, t.auth_time, t.sign_in_provider, t.second_factor,
        t.second_factor_id, t.developer_claims
        """

    /// A refresh token with its account in its tenant (empty columns when it is gone) and whether the account has
    /// federated identities.
    static let sessionSQL = """
        SELECT \(columns), \(UserRows.columns.split(separator: ", ").map { "u." + $0 }.joined(separator: ", ")),
            CASE WHEN EXISTS (
                SELECT 1 FROM federated_identities f WHERE f.tenant_id = t.tenant_id AND f.local_id = t.local_id
            ) THEN 1 ELSE 0 END AS has_identities
        FROM refresh_tokens t LEFT JOIN users u ON u.tenant_id = t.tenant_id AND u.local_id = t.local_id WHERE t.token_hash = ?
        """
}

/// Statements of sessions, for every SQL-backed store: refresh tokens by the hash of their value, and a refresh's read
/// of the token with its account (hence the accounts' statements).
extension TokensWrites where Self: SQLBacked & UsersWrites {
    func refreshToken(hash: String) async throws -> RefreshTokenRecord? {
        try await db.first(
            .read("SELECT \(RefreshTokenRows.columns) FROM refresh_tokens t WHERE t.token_hash = ?", [.text(hash)], from: .refreshTokens)
        )
        .map(refreshToken(from:))
    }

    func refreshSession(hash: String) async throws -> (token: RefreshTokenRecord, user: UserRecord?, hasIdentities: Bool)? {
        guard let row = try await db.first(.read(RefreshTokenRows.sessionSQL, [.text(hash)], from: .refreshTokens, .users, .federatedIdentities))
        else {
            return nil
        }
        let user = try row.optionalString("local_id") == nil ? nil : try user(from: row)
        return (try refreshToken(from: row), user, try row.int64("has_identities") != 0)
    }

    private func refreshToken(from row: SQLRow) throws -> RefreshTokenRecord {
        RefreshTokenRecord(
            tenant: TenantID(rawValue: try row.string("token_tenant_id")), tokenHash: try row.string("token_hash"),
            localID: try row.string("token_local_id"), createdAt: try row.instant("token_created_at"),
            authTime: try row.instant(seconds: "auth_time"), signInProvider: try row.string("sign_in_provider"),
            secondFactor: try row.optionalString("second_factor").map(SecondFactorKind.init(rawValue:)),
            secondFactorID: try row.optionalString("second_factor_id"), developerClaims: try row.optionalString("developer_claims")
        )
    }

    func insertRefreshToken(_ t: RefreshTokenRecord) async throws {
        try await db.deferred(
            .write(
                """
                INSERT INTO refresh_tokens (token_hash, tenant_id, local_id, created_at, auth_time, sign_in_provider, second_factor,
                    second_factor_id, developer_claims)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    .text(t.tokenHash), .text(t.tenant.rawValue), .text(t.localID), .instant(t.createdAt), .seconds(t.authTime),
                    .text(t.signInProvider),
                    (t.secondFactor?.rawValue).sql, t.secondFactorID.sql, t.developerClaims.sql,
                ], into: .refreshTokens)
        )
    }

    func deleteRefreshTokens(tenant: TenantID, localID: String, createdBefore cutoff: Instant?) async throws -> Int {
        let key: [SQLValue] = [.text(tenant.rawValue), .text(localID)]
        if let cutoff {
            return try await db.query(
                .write(
                    "DELETE FROM refresh_tokens WHERE tenant_id = ? AND local_id = ? AND created_at < ? RETURNING token_hash",
                    key + [.instant(cutoff)],
                    into: .refreshTokens)
            ).count
        }
        return try await db.query(
            .write("DELETE FROM refresh_tokens WHERE tenant_id = ? AND local_id = ? RETURNING token_hash", key, into: .refreshTokens)
        )
        .count
    }

    func touchRefresh(tenant: TenantID, localID: String, at: Instant) async throws {
        try await db.run(
            .write(
                "UPDATE users SET last_refresh_at = ? WHERE tenant_id = ? AND local_id = ?", [.instant(at), .text(tenant.rawValue), .text(localID)],
                into: .users))
    }
}
