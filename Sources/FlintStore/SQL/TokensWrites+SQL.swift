import FlintCore

/// A refresh token's statement texts, computed once (a protocol extension keeps no stored values).
enum RefreshTokenRows {
    /// A refresh token's columns, its account and creation time named apart from an account's.
    static let columns = """
        t.token_hash, t.tenant_id AS token_tenant_id, t.local_id AS token_local_id, t.created_at AS token_created_at, t.auth_time, t.sign_in_provider, t.second_factor,
        t.second_factor_id, t.developer_claims,
        t.device, t.first_ip, t.last_ip, COALESCE(t.last_used_at, t.created_at) AS token_last_used_at
        """

    /// A session's refresh token, matched by its account and session ID (the hash's first digits, ``RefreshTokenRecord/sessionID``),
    /// bound by ``sessionBinds(_:_:_:)``: one seek in the account's index (`tenant_id, local_id, token_hash`, migration 34)
    /// to the hashes from the session ID up to it followed by `g` (every hash is lowercase hex, so those are exactly the
    /// hashes it begins, in any collation), the `substr` equality keeping the answer exact for any text a caller sends.
    /// Matched on the account's index alone, an account's every session was read (the benchmark's ten accounts held
    /// ~8,500 each after a few runs: a lookup with an ID token ran at 360/s).
    static let sessionMatch = """
        tenant_id = ? AND local_id = ? AND token_hash >= ? AND token_hash < ? AND substr(token_hash, 1, \(RefreshTokenRecord.sessionIDLength)) = ?
        """

    /// The values of ``sessionMatch``.
    static func sessionBinds(_ tenant: TenantID, _ localID: String, _ sessionID: String) -> [SQLValue] {
        [.text(tenant.rawValue), .text(localID), .text(sessionID), .text(sessionID + "g"), .text(sessionID)]
    }

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
        var record = RefreshTokenRecord(
            tenant: TenantID(rawValue: try row.string("token_tenant_id")), tokenHash: try row.string("token_hash"),
            localID: try row.string("token_local_id"), createdAt: try row.instant("token_created_at"),
            authTime: try row.instant(seconds: "auth_time"), signInProvider: try row.string("sign_in_provider"),
            secondFactor: try row.optionalString("second_factor").map(SecondFactorKind.init(rawValue:)),
            secondFactorID: try row.optionalString("second_factor_id"), developerClaims: try row.optionalString("developer_claims")
        )
        record.device = try row.optionalString("device")
        record.firstIP = try row.optionalString("first_ip")
        record.lastIP = try row.optionalString("last_ip")
        record.lastUsedAt = try row.instant("token_last_used_at")
        return record
    }

    func insertRefreshToken(_ t: RefreshTokenRecord) async throws {
        try await db.deferred(
            .write(
                """
                INSERT INTO refresh_tokens (token_hash, tenant_id, local_id, created_at, auth_time, sign_in_provider, second_factor,
                    second_factor_id, developer_claims, device, first_ip, last_ip, last_used_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    .text(t.tokenHash), .text(t.tenant.rawValue), .text(t.localID), .instant(t.createdAt), .seconds(t.authTime),
                    .text(t.signInProvider),
                    (t.secondFactor?.rawValue).sql, t.secondFactorID.sql, t.developerClaims.sql,
                    t.device.sql, t.firstIP.sql, t.lastIP.sql, .instant(t.lastUsedAt),
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

    func sessions(tenant: TenantID, localID: String) async throws -> [RefreshTokenRecord] {
        try await db.query(
            .read(
                "SELECT \(RefreshTokenRows.columns) FROM refresh_tokens t WHERE t.tenant_id = ? AND t.local_id = ?",
                [.text(tenant.rawValue), .text(localID)], from: .refreshTokens)
        )
        .map(refreshToken(from:))
        .sorted { ($0.lastUsedAt, $0.tokenHash) > ($1.lastUsedAt, $1.tokenHash) }
    }

    func userWithSession(tenant: TenantID, localID: String, sessionID: String) async throws -> (user: UserRecord, sessionLive: Bool)? {
        let sql = """
            SELECT \(UserRows.columns),
                CASE WHEN EXISTS (SELECT 1 FROM refresh_tokens WHERE \(RefreshTokenRows.sessionMatch)) THEN 1 ELSE 0 END AS session_live
            FROM users WHERE tenant_id = ? AND local_id = ?
            """
        guard
            let row = try await db.first(
                .read(
                    sql, RefreshTokenRows.sessionBinds(tenant, localID, sessionID) + [.text(tenant.rawValue), .text(localID)], from: .users,
                    .refreshTokens))
        else {
            return nil
        }
        return (try user(from: row), try row.int64("session_live") != 0)
    }

    func session(tenant: TenantID, localID: String, sessionID: String) async throws -> RefreshTokenRecord? {
        try await db.first(
            .read(
                "SELECT \(RefreshTokenRows.columns) FROM refresh_tokens t WHERE \(RefreshTokenRows.sessionMatch)",
                RefreshTokenRows.sessionBinds(tenant, localID, sessionID), from: .refreshTokens)
        ).map(refreshToken(from:))
    }

    func sessionExists(tenant: TenantID, localID: String, sessionID: String) async throws -> Bool {
        try await db.first(
            .read(
                "SELECT 1 AS live FROM refresh_tokens WHERE \(RefreshTokenRows.sessionMatch)",
                RefreshTokenRows.sessionBinds(tenant, localID, sessionID),
                from: .refreshTokens)
        ) != nil
    }

    func deleteSession(tenant: TenantID, localID: String, sessionID: String) async throws -> Bool {
        !(try await db.query(
            .write(
                "DELETE FROM refresh_tokens WHERE \(RefreshTokenRows.sessionMatch) RETURNING token_hash",
                RefreshTokenRows.sessionBinds(tenant, localID, sessionID),
                into: .refreshTokens)
        )).isEmpty
    }

    func deleteSessions(tenant: TenantID, localID: String, except sessionID: String) async throws -> Int {
        try await db.query(
            .write(
                """
                DELETE FROM refresh_tokens WHERE tenant_id = ? AND local_id = ? AND substr(token_hash, 1, \(RefreshTokenRecord.sessionIDLength)) <> ?
                RETURNING token_hash
                """, [.text(tenant.rawValue), .text(localID), .text(sessionID)], into: .refreshTokens)
        ).count
    }

    func touchSession(hash: String, at: Instant, ip: String?) async throws {
        try await db.run(
            .write(
                "UPDATE refresh_tokens SET last_used_at = ?, last_ip = COALESCE(?, last_ip) WHERE token_hash = ?",
                [.instant(at), ip.sql, .text(hash)],
                into: .refreshTokens))
    }
}
