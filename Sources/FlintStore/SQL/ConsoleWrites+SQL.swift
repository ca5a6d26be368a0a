import FlintCore

/// Statements of the web console, for every SQL-backed store: operators, their sessions, and its account search (hence
/// the accounts' statements).
extension ConsoleWrites where Self: SQLBacked & UsersWrites {
    private static var operatorColumns: String {
        "email, role, password_hash, totp_secret, last_totp_step, setup_token_hash, setup_expires_at, created_at, tenants"
    }
    private static var consoleSessionColumns: String { "token_hash, email, stage, created_at, last_seen_at" }

    private func consoleOperator(from row: SQLRow) throws -> ConsoleOperatorRecord {
        ConsoleOperatorRecord(
            email: try row.string("email"), role: ConsoleRole(rawValue: try row.string("role")),
            passwordHash: try row.optionalString("password_hash"),
            totpSecret: try row.optionalString("totp_secret"), lastTOTPStep: try row.optionalInt64("last_totp_step"),
            setupTokenHash: try row.optionalString("setup_token_hash"), setupExpiresAt: try row.optionalInstant("setup_expires_at"),
            createdAt: try row.instant("created_at"), tenants: try TenantLimitColumn.tenants(try row.optionalString("tenants")))
    }

    private func consoleSession(from row: SQLRow) throws -> ConsoleSessionRecord {
        ConsoleSessionRecord(
            tokenHash: try row.string("token_hash"), email: try row.string("email"), stage: ConsoleSessionStage(rawValue: try row.string("stage")),
            createdAt: try row.instant("created_at"), lastSeenAt: try row.instant("last_seen_at"))
    }

    func consoleOperator(email: String) async throws -> ConsoleOperatorRecord? {
        try await db.first(.read("SELECT \(Self.operatorColumns) FROM console_operators WHERE email = ?", [.text(email)], from: .consoleOperators))
            .map(consoleOperator(from:))
    }

    func consoleOperator(setupTokenHash: String) async throws -> ConsoleOperatorRecord? {
        try await db.first(
            .read(
                "SELECT \(Self.operatorColumns) FROM console_operators WHERE setup_token_hash = ?", [.text(setupTokenHash)], from: .consoleOperators)
        )
        .map(consoleOperator(from:))
    }

    func consoleOperators() async throws -> [ConsoleOperatorRecord] {
        try await db.query(.read("SELECT \(Self.operatorColumns) FROM console_operators ORDER BY email", from: .consoleOperators)).map(
            consoleOperator(from:))
    }

    func consoleSession(tokenHash: String) async throws -> ConsoleSessionRecord? {
        try await db.first(
            .read("SELECT \(Self.consoleSessionColumns) FROM console_sessions WHERE token_hash = ?", [.text(tokenHash)], from: .consoleSessions)
        )
        .map(consoleSession(from:))
    }

    /// Name matches beyond which SQLite's search walks the primary key in order instead of sorting what the name index
    /// found: about √(51 · 1,000,000), where both cost alike at a page of 50 among 1,000,000 accounts.
    static var denseNameMatches: Int { 5_000 }

    func consoleUsers(tenant: TenantID, idPrefix: String?, namePrefix: String?, after: String?, limit: Int) async throws -> [UserRecord] {
        guard limit > 0 else { return [] }
        // Both prefixes are ranges on an index, compared by code point (UTF-8 bytes): SQLite's BINARY collation, and
        // PostgreSQL's "C" one on the expressions migration 13 indexes, whatever the database's own collation is.
        let c = db.dialect == .postgresql ? " COLLATE \"C\"" : ""
        func range(_ column: String, _ prefix: String) -> (sql: String, binds: [SQLValue]) {
            guard let bound = Self.prefixUpperBound(prefix) else { return ("\(column)\(c) >= ?", [.text(prefix)]) }
            return ("\(column)\(c) >= ? AND \(column)\(c) < ?", [.text(prefix), .text(bound)])
        }
        var conditions: [String] = []
        var binds: [SQLValue] = []
        if let idPrefix, !idPrefix.isEmpty {
            let id = range("local_id", idPrefix)
            conditions.append("(" + id.sql + ")")
            binds += id.binds
        }
        if let namePrefix, !namePrefix.isEmpty {
            // The partial index holds only accounts with a name (phone-only sign-ups never write it); LOWER is the
            // engine's own (ASCII only in SQLite), as before.
            var name = range("LOWER(display_name)", namePrefix.lowercased())
            // PostgreSQL's planner weighs sorting the name's matches against walking the primary key from its
            // statistics; SQLite has none, so a capped count on the index tells it (a common name walks the key).
            if db.dialect == .sqlite {
                let probe = try await db.first(
                    .read(
                        """
                        SELECT COUNT(*) AS n FROM (SELECT 1 FROM users WHERE tenant_id = ? AND display_name IS NOT NULL AND \(name.sql)
                            LIMIT \(Self.denseNameMatches)) AS matches
                        """, [.text(tenant.rawValue)] + name.binds, from: .users))
                if try probe?.int64("n") ?? 0 >= Int64(Self.denseNameMatches) {
                    name = range("+LOWER(display_name)", namePrefix.lowercased())
                }
            }
            conditions.append("(display_name IS NOT NULL AND " + name.sql + ")")
            binds += name.binds
        }
        var clause = "tenant_id = ?" + (conditions.isEmpty ? "" : " AND (" + conditions.joined(separator: " OR ") + ")")
        binds.insert(.text(tenant.rawValue), at: 0)
        if let after {
            clause += " AND local_id > ?"
            binds.append(.text(after))
        }
        return try await db.query(
            .read("SELECT \(UserRows.columns) FROM users WHERE \(clause) ORDER BY local_id LIMIT ?", binds + [.integer(Int64(limit))], from: .users)
        ).map(user(from:))
    }

    /// The least text after every text that starts with `prefix`, by code point: its last scalar moved on by one
    /// (over the surrogates), dropping trailing U+10FFFF; `nil` when every scalar is U+10FFFF (no upper bound).
    static func prefixUpperBound(_ prefix: String) -> String? {
        var scalars = Array(prefix.unicodeScalars)
        while let last = scalars.popLast() {
            let next = last.value == 0xD7FF ? 0xE000 : last.value + 1
            if let scalar = Unicode.Scalar(next) {
                var view = String.UnicodeScalarView()
                view.append(contentsOf: scalars)
                view.append(scalar)
                return String(view)
            }
        }
        return nil
    }

    func insertConsoleOperator(_ o: ConsoleOperatorRecord) async throws {
        let rows = try await db.query(
            .write(
                """
                INSERT INTO console_operators (\(Self.operatorColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT DO NOTHING RETURNING email
                """,
                [
                    .text(o.email), .text(o.role.rawValue), o.passwordHash.sql, o.totpSecret.sql, o.lastTOTPStep.sql, o.setupTokenHash.sql,
                    o.setupExpiresAt.sql, .instant(o.createdAt), TenantLimitColumn.value(o.tenants),
                ], into: .consoleOperators))
        if rows.isEmpty { throw StoreError.conflict(.operatorEmail) }
    }

    func updateConsoleOperator(_ o: ConsoleOperatorRecord) async throws {
        let rows = try await db.query(
            .write(
                """
                UPDATE console_operators SET role = ?, password_hash = ?, totp_secret = ?, last_totp_step = ?, setup_token_hash = ?,
                    setup_expires_at = ?, tenants = ? WHERE email = ? RETURNING email
                """,
                [
                    .text(o.role.rawValue), o.passwordHash.sql, o.totpSecret.sql, o.lastTOTPStep.sql, o.setupTokenHash.sql, o.setupExpiresAt.sql,
                    TenantLimitColumn.value(o.tenants), .text(o.email),
                ], into: .consoleOperators))
        if rows.isEmpty { throw StoreError.notFound }
    }

    func lockedConsoleOperatorEmails(role: ConsoleRole) async throws -> [String] {
        let sql = "SELECT email FROM console_operators WHERE role = ? ORDER BY email"
        let statement: SQLStatement =
            db.dialect == .postgresql
            ? .lockingRead(sql + " FOR UPDATE", [.text(role.rawValue)], from: .consoleOperators)
            : .read(sql, [.text(role.rawValue)], from: .consoleOperators)
        return try await db.query(statement).map { try $0.string("email") }
    }

    func deleteConsoleOperator(email: String) async throws {
        let rows = try await db.query(
            .write("DELETE FROM console_operators WHERE email = ? RETURNING email", [.text(email)], into: .consoleOperators))
        if rows.isEmpty { throw StoreError.notFound }
    }

    func insertConsoleSession(_ s: ConsoleSessionRecord) async throws {
        try await db.run(
            .write(
                "INSERT INTO console_sessions (\(Self.consoleSessionColumns)) VALUES (?, ?, ?, ?, ?)",
                [.text(s.tokenHash), .text(s.email), .text(s.stage.rawValue), .instant(s.createdAt), .instant(s.lastSeenAt)], into: .consoleSessions))
    }

    func touchConsoleSession(tokenHash: String, at: Instant) async throws {
        try await db.run(
            .write("UPDATE console_sessions SET last_seen_at = ? WHERE token_hash = ?", [.instant(at), .text(tokenHash)], into: .consoleSessions))
    }

    func deleteConsoleSession(tokenHash: String) async throws {
        try await db.run(.write("DELETE FROM console_sessions WHERE token_hash = ?", [.text(tokenHash)], into: .consoleSessions))
    }

    func deleteConsoleSessions(idleBefore: Instant, createdBefore: Instant) async throws -> Int {
        try await db.query(
            .write(
                "DELETE FROM console_sessions WHERE last_seen_at < ? OR created_at < ? RETURNING token_hash",
                [.instant(idleBefore), .instant(createdBefore)], into: .consoleSessions)
        ).count
    }

    func deleteConsoleSessions(email: String) async throws -> Int {
        try await db.query(.write("DELETE FROM console_sessions WHERE email = ? RETURNING token_hash", [.text(email)], into: .consoleSessions))
            .count
    }
}
