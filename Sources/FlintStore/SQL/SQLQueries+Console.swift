import FlintCore

/// Statements of the web console: operators, their sessions, and its account search.
extension SQLQueries {
    private static let operatorColumns =
        "email, role, password_hash, totp_secret, last_totp_step, setup_token_hash, setup_expires_at, created_at"
    private static let consoleSessionColumns = "token_hash, email, stage, created_at, last_seen_at"

    private func consoleOperator(from row: SQLRow) throws -> ConsoleOperatorRecord {
        ConsoleOperatorRecord(
            email: try row.string("email"), role: ConsoleRole(rawValue: try row.string("role")),
            passwordHash: try row.optionalString("password_hash"),
            totpSecret: try row.optionalString("totp_secret"), lastTOTPStep: try row.optionalInt64("last_totp_step"),
            setupTokenHash: try row.optionalString("setup_token_hash"), setupExpiresAt: try row.optionalInstant("setup_expires_at"),
            createdAt: try row.instant("created_at"))
    }

    private func consoleSession(from row: SQLRow) throws -> ConsoleSessionRecord {
        ConsoleSessionRecord(
            tokenHash: try row.string("token_hash"), email: try row.string("email"), stage: ConsoleSessionStage(rawValue: try row.string("stage")),
            createdAt: try row.instant("created_at"), lastSeenAt: try row.instant("last_seen_at"))
    }

    func consoleOperator(email: String) async throws -> ConsoleOperatorRecord? {
        try await db.first("SELECT \(Self.operatorColumns) FROM console_operators WHERE email = ?", [.text(email)]).map(consoleOperator(from:))
    }

    func consoleOperator(setupTokenHash: String) async throws -> ConsoleOperatorRecord? {
        try await db.first("SELECT \(Self.operatorColumns) FROM console_operators WHERE setup_token_hash = ?", [.text(setupTokenHash)])
            .map(consoleOperator(from:))
    }

    func consoleOperators() async throws -> [ConsoleOperatorRecord] {
        try await db.query("SELECT \(Self.operatorColumns) FROM console_operators ORDER BY email", []).map(consoleOperator(from:))
    }

    func consoleSession(tokenHash: String) async throws -> ConsoleSessionRecord? {
        try await db.first("SELECT \(Self.consoleSessionColumns) FROM console_sessions WHERE token_hash = ?", [.text(tokenHash)])
            .map(consoleSession(from:))
    }

    func consoleUsers(idPrefix: String?, nameContains: String?, after: String?, limit: Int) async throws -> [UserRecord] {
        guard limit > 0 else { return [] }
        var conditions: [String] = []
        var binds: [SQLValue] = []
        if let idPrefix, !idPrefix.isEmpty {
            // Compared character by character, not by the database's collation.
            // (The length is a number this code computed, written in the statement: PostgreSQL's substr takes an integer.)
            conditions.append("substr(local_id, 1, \(idPrefix.count)) = ?")
            binds.append(.text(idPrefix))
        }
        if let nameContains, !nameContains.isEmpty {
            conditions.append("(LOWER(display_name) LIKE ? ESCAPE '\\')")
            binds.append(.text("%" + Self.likeEscaped(nameContains.lowercased()) + "%"))
        }
        var clause = conditions.isEmpty ? "" : "(" + conditions.joined(separator: " OR ") + ")"
        if let after {
            clause += (clause.isEmpty ? "" : " AND ") + "local_id > ?"
            binds.append(.text(after))
        }
        let filter = clause.isEmpty ? "" : "WHERE " + clause
        return try await db.query(
            "SELECT \(Self.userColumns) FROM users \(filter) ORDER BY local_id LIMIT ?", binds + [.integer(Int64(limit))]
        ).map(user(from:))
    }

    /// `text` with LIKE's wildcards and its escape character escaped.
    private static func likeEscaped(_ text: String) -> String {
        var out = ""
        for character in text {
            if character == "%" || character == "_" || character == "\\" { out.append("\\") }
            out.append(character)
        }
        return out
    }

    func insertConsoleOperator(_ o: ConsoleOperatorRecord) async throws {
        let rows = try await db.query(
            """
            INSERT INTO console_operators (\(Self.operatorColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT DO NOTHING RETURNING email
            """,
            [
                .text(o.email), .text(o.role.rawValue), o.passwordHash.sql, o.totpSecret.sql, o.lastTOTPStep.sql, o.setupTokenHash.sql,
                o.setupExpiresAt.sql, .instant(o.createdAt),
            ])
        if rows.isEmpty { throw StoreError.conflict("email") }
    }

    func updateConsoleOperator(_ o: ConsoleOperatorRecord) async throws {
        let rows = try await db.query(
            """
            UPDATE console_operators SET role = ?, password_hash = ?, totp_secret = ?, last_totp_step = ?, setup_token_hash = ?,
                setup_expires_at = ? WHERE email = ? RETURNING email
            """,
            [
                .text(o.role.rawValue), o.passwordHash.sql, o.totpSecret.sql, o.lastTOTPStep.sql, o.setupTokenHash.sql, o.setupExpiresAt.sql,
                .text(o.email),
            ])
        if rows.isEmpty { throw StoreError.notFound }
    }

    func insertConsoleSession(_ s: ConsoleSessionRecord) async throws {
        try await db.run(
            "INSERT INTO console_sessions (\(Self.consoleSessionColumns)) VALUES (?, ?, ?, ?, ?)",
            [.text(s.tokenHash), .text(s.email), .text(s.stage.rawValue), .instant(s.createdAt), .instant(s.lastSeenAt)])
    }

    func touchConsoleSession(tokenHash: String, at: Instant) async throws {
        try await db.run("UPDATE console_sessions SET last_seen_at = ? WHERE token_hash = ?", [.instant(at), .text(tokenHash)])
    }

    func deleteConsoleSession(tokenHash: String) async throws {
        try await db.run("DELETE FROM console_sessions WHERE token_hash = ?", [.text(tokenHash)])
    }

    func deleteConsoleSessions(idleBefore: Instant, createdBefore: Instant) async throws -> Int {
        try await db.query(
            "DELETE FROM console_sessions WHERE last_seen_at < ? OR created_at < ? RETURNING token_hash",
            [.instant(idleBefore), .instant(createdBefore)]
        ).count
    }

    func deleteConsoleSessions(email: String) async throws -> Int {
        try await db.query("DELETE FROM console_sessions WHERE email = ? RETURNING token_hash", [.text(email)]).count
    }
}
