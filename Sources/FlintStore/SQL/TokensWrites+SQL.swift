import FlintCore

/// A refresh token's statement texts, computed once (a protocol extension keeps no stored values).
private enum RefreshTokenRows {
    /// A refresh token's columns, its account and creation time named apart from an account's.
    static let columns = """
        t.token_hash, t.local_id AS token_local_id, t.created_at AS token_created_at, t.auth_time, t.sign_in_provider, t.second_factor,
        t.second_factor_id, t.developer_claims,
        t.device, t.first_ip, t.last_ip, COALESCE(t.last_used_at, t.created_at) AS token_last_used_at
        """

    /// A session's refresh token, matched by its account and session ID (the hash's first digits, ``RefreshTokenRecord/sessionID``):
    /// found through the account's index.
    static let sessionMatch = "local_id = ? AND substr(token_hash, 1, \(RefreshTokenRecord.sessionIDLength)) = ?"

    /// A refresh token with its account (empty columns when it is gone) and whether the account has federated identities.
    static let sessionSQL = """
        SELECT \(columns), \(UserRows.columns.split(separator: ", ").map { "u." + $0 }.joined(separator: ", ")),
            CASE WHEN EXISTS (SELECT 1 FROM federated_identities f WHERE f.local_id = t.local_id) THEN 1 ELSE 0 END AS has_identities
        FROM refresh_tokens t LEFT JOIN users u ON u.local_id = t.local_id WHERE t.token_hash = ?
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
            tokenHash: try row.string("token_hash"), localID: try row.string("token_local_id"), createdAt: try row.instant("token_created_at"),
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
                INSERT INTO refresh_tokens (token_hash, local_id, created_at, auth_time, sign_in_provider, second_factor, second_factor_id,
                    developer_claims, device, first_ip, last_ip, last_used_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    .text(t.tokenHash), .text(t.localID), .instant(t.createdAt), .seconds(t.authTime), .text(t.signInProvider),
                    (t.secondFactor?.rawValue).sql, t.secondFactorID.sql, t.developerClaims.sql,
                    t.device.sql, t.firstIP.sql, t.lastIP.sql, .instant(t.lastUsedAt),
                ], into: .refreshTokens)
        )
    }

    func deleteRefreshTokens(localID: String, createdBefore cutoff: Instant?) async throws -> Int {
        if let cutoff {
            return try await db.query(
                .write(
                    "DELETE FROM refresh_tokens WHERE local_id = ? AND created_at < ? RETURNING token_hash", [.text(localID), .instant(cutoff)],
                    into: .refreshTokens)
            ).count
        }
        return try await db.query(
            .write("DELETE FROM refresh_tokens WHERE local_id = ? RETURNING token_hash", [.text(localID)], into: .refreshTokens)
        )
        .count
    }

    func touchRefresh(localID: String, at: Instant) async throws {
        try await db.run(.write("UPDATE users SET last_refresh_at = ? WHERE local_id = ?", [.instant(at), .text(localID)], into: .users))
    }

    func sessions(localID: String) async throws -> [RefreshTokenRecord] {
        try await db.query(
            .read("SELECT \(RefreshTokenRows.columns) FROM refresh_tokens t WHERE t.local_id = ?", [.text(localID)], from: .refreshTokens)
        )
        .map(refreshToken(from:))
        .sorted { ($0.lastUsedAt, $0.tokenHash) > ($1.lastUsedAt, $1.tokenHash) }
    }

    func userWithSession(localID: String, sessionID: String) async throws -> (user: UserRecord, sessionLive: Bool)? {
        let sql = """
            SELECT \(UserRows.columns),
                CASE WHEN EXISTS (SELECT 1 FROM refresh_tokens WHERE \(RefreshTokenRows.sessionMatch)) THEN 1 ELSE 0 END AS session_live
            FROM users WHERE local_id = ?
            """
        guard let row = try await db.first(.read(sql, [.text(localID), .text(sessionID), .text(localID)], from: .users, .refreshTokens)) else {
            return nil
        }
        return (try user(from: row), try row.int64("session_live") != 0)
    }

    func sessionExists(localID: String, sessionID: String) async throws -> Bool {
        try await db.first(
            .read(
                "SELECT 1 AS live FROM refresh_tokens WHERE \(RefreshTokenRows.sessionMatch)", [.text(localID), .text(sessionID)],
                from: .refreshTokens)
        ) != nil
    }

    func deleteSession(localID: String, sessionID: String) async throws -> Bool {
        !(try await db.query(
            .write(
                "DELETE FROM refresh_tokens WHERE \(RefreshTokenRows.sessionMatch) RETURNING token_hash", [.text(localID), .text(sessionID)],
                into: .refreshTokens)
        )).isEmpty
    }

    func deleteSessions(localID: String, except sessionID: String) async throws -> Int {
        try await db.query(
            .write(
                """
                DELETE FROM refresh_tokens WHERE local_id = ? AND substr(token_hash, 1, \(RefreshTokenRecord.sessionIDLength)) <> ?
                RETURNING token_hash
                """, [.text(localID), .text(sessionID)], into: .refreshTokens)
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
