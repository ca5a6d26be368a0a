extension SQLQueries {
    static let userColumns = """
        local_id, phone_number, email, email_verified, display_name, photo_url, disabled, created_at, last_login_at,
        last_refresh_at, valid_since, custom_attributes, password_hash, password_updated_at, email_link_sign_in,
        revocation_generation
        """

    func user(from row: SQLRow) throws -> UserRecord {
        var user = UserRecord(
            localID: try row.string("local_id"), phoneNumber: try row.optionalString("phone_number"),
            createdAt: try row.int64("created_at"), validSince: try row.int64("valid_since")
        )
        user.email = try row.optionalString("email")
        user.emailVerified = try row.bool("email_verified")
        user.displayName = try row.optionalString("display_name")
        user.photoURL = try row.optionalString("photo_url")
        user.disabled = try row.bool("disabled")
        user.lastLoginAt = try row.optionalInt64("last_login_at")
        user.lastRefreshAt = try row.optionalInt64("last_refresh_at")
        user.customAttributes = try row.optionalString("custom_attributes")
        user.passwordHash = try row.optionalString("password_hash")
        user.passwordUpdatedAt = try row.optionalInt64("password_updated_at")
        user.emailLinkSignIn = try row.bool("email_link_sign_in")
        user.revocationGeneration = try row.int64("revocation_generation")
        return user
    }

    func user(localID: String) async throws -> UserRecord? {
        try await db.first("SELECT \(Self.userColumns) FROM users WHERE local_id = ?", [.text(localID)]).map(user(from:))
    }

    func user(phoneNumber: String) async throws -> UserRecord? {
        try await db.first("SELECT \(Self.userColumns) FROM users WHERE phone_number = ?", [.text(phoneNumber)]).map(user(from:))
    }

    private var lockClause: String { db.dialect == .postgresql ? " FOR UPDATE" : "" }

    func lockedUser(localID: String) async throws -> UserRecord? {
        try await db.first("SELECT \(Self.userColumns) FROM users WHERE local_id = ?\(lockClause)", [.text(localID)]).map(user(from:))
    }

    func lockedUser(email: String) async throws -> UserRecord? {
        try await db.first("SELECT \(Self.userColumns) FROM users WHERE email = ?\(lockClause)", [.text(email)]).map(user(from:))
    }

    func lockedUser(phoneNumber: String) async throws -> UserRecord? {
        try await db.first("SELECT \(Self.userColumns) FROM users WHERE phone_number = ?\(lockClause)", [.text(phoneNumber)])
            .map(user(from:))
    }

    func user(email: String) async throws -> UserRecord? {
        try await db.first("SELECT \(Self.userColumns) FROM users WHERE email = ?", [.text(email)]).map(user(from:))
    }

    func schemaVersion() async throws -> Int {
        Int(try await db.first("SELECT COALESCE(MAX(version), 0) AS v FROM flint_schema")?.int64("v") ?? 0)
    }

    func userCount() async throws -> Int {
        Int(try await db.first("SELECT COUNT(*) AS n FROM users")?.int64("n") ?? 0)
    }

    /// Fails with ``StoreError/conflict`` instead of a driver error when a unique value is taken by another user.
    private func checkUnique(_ u: UserRecord) async throws {
        for (column, value) in [("phone_number", u.phoneNumber), ("email", u.email)] {
            guard let value else { continue }
            if let owner = try await db.first("SELECT local_id FROM users WHERE \(column) = ?", [.text(value)])?.string("local_id"),
                owner != u.localID
            {
                throw StoreError.conflict(column == "email" ? "email" : "phoneNumber")
            }
        }
    }

    func userValues(_ u: UserRecord) -> [SQLValue] {
        [
            u.phoneNumber.sql, u.email.sql, .bool(u.emailVerified), u.displayName.sql, u.photoURL.sql, .bool(u.disabled),
            u.lastLoginAt.sql, u.lastRefreshAt.sql, .integer(u.validSince), u.customAttributes.sql, u.passwordHash.sql,
            u.passwordUpdatedAt.sql, .bool(u.emailLinkSignIn), .integer(u.revocationGeneration),
        ]
    }

    func insertUser(_ u: UserRecord) async throws {
        let rows = try await db.query(
            """
            INSERT INTO users (phone_number, email, email_verified, display_name, photo_url, disabled, last_login_at,
                last_refresh_at, valid_since, custom_attributes, password_hash, password_updated_at, email_link_sign_in,
                revocation_generation, local_id, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT DO NOTHING RETURNING local_id
            """,
            userValues(u) + [.text(u.localID), .integer(u.createdAt)]
        )
        if rows.isEmpty {
            try await checkUnique(u)
            throw StoreError.conflict("localId")
        }
    }

    func updateUser(_ u: UserRecord) async throws {
        try await checkUnique(u)
        let rows = try await db.query(
            """
            UPDATE users SET phone_number = ?, email = ?, email_verified = ?, display_name = ?, photo_url = ?, disabled = ?,
                last_login_at = ?, last_refresh_at = ?, valid_since = ?, custom_attributes = ?, password_hash = ?,
                password_updated_at = ?, email_link_sign_in = ?, revocation_generation = ?
            WHERE local_id = ? RETURNING local_id
            """,
            userValues(u) + [.text(u.localID)]
        )
        if rows.isEmpty { throw StoreError.notFound }
    }

    func recordSignIn(localID: String, at: Int64) async throws {
        try await db.run("UPDATE users SET last_login_at = ? WHERE local_id = ?", [.integer(at), .text(localID)])
    }

    func deleteUser(localID: String) async throws -> Bool {
        try await db.run("DELETE FROM refresh_tokens WHERE local_id = ?", [.text(localID)])
        try await db.run("DELETE FROM mfa_enrollments WHERE local_id = ?", [.text(localID)])
        try await db.run("DELETE FROM mfa_recovery_codes WHERE local_id = ?", [.text(localID)])
        return !(try await db.query("DELETE FROM users WHERE local_id = ? RETURNING local_id", [.text(localID)])).isEmpty
    }

    func deleteAllUsers() async throws {
        try await db.run("DELETE FROM refresh_tokens")
        try await db.run("DELETE FROM mfa_enrollments")
        try await db.run("DELETE FROM mfa_recovery_codes")
        try await db.run("DELETE FROM users")
    }

    // MARK: Refresh tokens

    func refreshToken(hash: String) async throws -> RefreshTokenRecord? {
        guard
            let row = try await db.first(
                """
                SELECT token_hash, local_id, created_at, auth_time, sign_in_provider, second_factor, second_factor_id
                FROM refresh_tokens WHERE token_hash = ?
                """,
                [.text(hash)]
            )
        else { return nil }
        return RefreshTokenRecord(
            tokenHash: try row.string("token_hash"), localID: try row.string("local_id"), createdAt: try row.int64("created_at"),
            authTime: try row.int64("auth_time"), signInProvider: try row.string("sign_in_provider"),
            secondFactor: try row.optionalString("second_factor").map(SecondFactorKind.init(rawValue:)),
            secondFactorID: try row.optionalString("second_factor_id")
        )
    }

    func insertRefreshToken(_ t: RefreshTokenRecord) async throws {
        try await db.run(
            """
            INSERT INTO refresh_tokens (token_hash, local_id, created_at, auth_time, sign_in_provider, second_factor, second_factor_id)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(t.tokenHash), .text(t.localID), .integer(t.createdAt), .integer(t.authTime), .text(t.signInProvider),
                (t.secondFactor?.rawValue).sql, t.secondFactorID.sql,
            ]
        )
    }

    func deleteRefreshTokens(localID: String, createdBefore cutoff: Int64?) async throws -> Int {
        if let cutoff {
            return try await db.query(
                "DELETE FROM refresh_tokens WHERE local_id = ? AND created_at < ? RETURNING token_hash", [.text(localID), .integer(cutoff)]
            ).count
        }
        return try await db.query("DELETE FROM refresh_tokens WHERE local_id = ? RETURNING token_hash", [.text(localID)]).count
    }

    func touchRefresh(localID: String, at: Int64) async throws {
        try await db.run("UPDATE users SET last_refresh_at = ? WHERE local_id = ?", [.integer(at), .text(localID)])
    }

    // MARK: Outbox

    static let outboxColumns = """
        o.seq, o.channel, o.recipient, o.body, o.locale, o.created_at, o.code, o.session_id, o.subject, o.html, o.link, o.request_type,
        o.status, o.status_detail, o.attempts
        """

    func outboxMessage(from row: SQLRow) throws -> OutboxMessage {
        var message = OutboxMessage(
            sequence: try row.int64("seq"), channel: OutboxChannel(rawValue: try row.string("channel")), recipient: try row.string("recipient"),
            body: try row.string("body"), locale: try row.string("locale"), createdAt: try row.int64("created_at"),
            code: try row.optionalString("code"), sessionID: try row.optionalString("session_id")
        )
        if let subject = try row.optionalString("subject") {
            message.email = OutboxMessage.EmailParts(
                subject: subject, html: try row.optionalString("html") ?? "", link: try row.optionalString("link") ?? "",
                requestType: OobCodeKind(rawValue: try row.optionalString("request_type") ?? "")
            )
        }
        message.status = OutboxStatus(rawValue: try row.string("status"))
        message.statusDetail = try row.optionalString("status_detail")
        message.attempts = Int(try row.int64("attempts"))
        return message
    }

    func appendOutbox(_ m: OutboxMessage) async throws -> Int64 {
        let row = try await db.first(
            """
            INSERT INTO outbox (channel, recipient, body, locale, created_at, code, session_id, subject, html, link, request_type, status,
                status_detail, attempts)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING seq
            """,
            [
                .text(m.channel.rawValue), .text(m.recipient), .text(m.body), .text(m.locale), .integer(m.createdAt), m.code.sql, m.sessionID.sql,
                (m.email?.subject).sql, (m.email?.html).sql, (m.email?.link).sql, (m.email?.requestType.rawValue).sql,
                .text(m.status.rawValue), m.statusDetail.sql, .integer(Int64(m.attempts)),
            ]
        )
        return try row?.int64("seq") ?? 0
    }

    func outbox(limit: Int) async throws -> [OutboxMessage] {
        try await db.query("SELECT \(Self.outboxColumns) FROM outbox o ORDER BY o.seq LIMIT ?", [.integer(Int64(limit))])
            .map(outboxMessage(from:))
    }
}
