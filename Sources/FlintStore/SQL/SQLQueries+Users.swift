import SQLKit

extension SQLQueries {
    private static let userColumns = """
        local_id, phone_number, email, email_verified, display_name, photo_url, disabled, created_at, last_login_at,
        last_refresh_at, valid_since, custom_attributes
        """

    private func user(from row: any SQLRow) throws -> UserRecord {
        var user = UserRecord(
            localID: try row.decode(column: "local_id", as: String.self),
            phoneNumber: try row.decode(column: "phone_number", as: String?.self),
            createdAt: try row.decode(column: "created_at", as: Int64.self),
            validSince: try row.decode(column: "valid_since", as: Int64.self)
        )
        user.email = try row.decode(column: "email", as: String?.self)
        user.emailVerified = try row.decode(column: "email_verified", as: Bool.self)
        user.displayName = try row.decode(column: "display_name", as: String?.self)
        user.photoURL = try row.decode(column: "photo_url", as: String?.self)
        user.disabled = try row.decode(column: "disabled", as: Bool.self)
        user.lastLoginAt = try row.decode(column: "last_login_at", as: Int64?.self)
        user.lastRefreshAt = try row.decode(column: "last_refresh_at", as: Int64?.self)
        user.customAttributes = try row.decode(column: "custom_attributes", as: String?.self)
        return user
    }

    func user(localID: String) async throws -> UserRecord? {
        try await db.raw("SELECT \(unsafeRaw: Self.userColumns) FROM users WHERE local_id = \(bind: localID)").first().map(user(from:))
    }

    func user(phoneNumber: String) async throws -> UserRecord? {
        try await db.raw("SELECT \(unsafeRaw: Self.userColumns) FROM users WHERE phone_number = \(bind: phoneNumber)").first().map(user(from:))
    }

    func userCount() async throws -> Int {
        try await db.raw("SELECT COUNT(*) AS n FROM users").first()?.decode(column: "n", as: Int.self) ?? 0
    }

    /// Fails with ``StoreError/conflict`` instead of a driver error when a unique value is taken.
    private func checkUnique(_ u: UserRecord) async throws {
        if let phone = u.phoneNumber,
            let owner = try await db.raw("SELECT local_id FROM users WHERE phone_number = \(bind: phone)").first()?.decode(
                column: "local_id", as: String.self),
            owner != u.localID
        {
            throw StoreError.conflict("phoneNumber")
        }
        if let email = u.email,
            let owner = try await db.raw("SELECT local_id FROM users WHERE email = \(bind: email)").first()?.decode(
                column: "local_id", as: String.self),
            owner != u.localID
        {
            throw StoreError.conflict("email")
        }
    }

    func insertUser(_ u: UserRecord) async throws {
        let rows = try await db.raw(
            """
            INSERT INTO users (local_id, phone_number, email, email_verified, display_name, photo_url, disabled, created_at,
                last_login_at, last_refresh_at, valid_since, custom_attributes)
            VALUES (\(bind: u.localID), \(bind: u.phoneNumber), \(bind: u.email), \(bind: u.emailVerified), \(bind: u.displayName),
                \(bind: u.photoURL), \(bind: u.disabled), \(bind: u.createdAt), \(bind: u.lastLoginAt), \(bind: u.lastRefreshAt),
                \(bind: u.validSince), \(bind: u.customAttributes))
            ON CONFLICT DO NOTHING RETURNING local_id
            """
        ).all()
        if rows.isEmpty {
            try await checkUnique(u)
            throw StoreError.conflict("localId")
        }
    }

    func recordSignIn(localID: String, at: Int64) async throws {
        try await db.raw("UPDATE users SET last_login_at = \(bind: at) WHERE local_id = \(bind: localID)").run()
    }

    func updateUser(_ u: UserRecord) async throws {
        try await checkUnique(u)
        let rows = try await db.raw(
            """
            UPDATE users SET phone_number = \(bind: u.phoneNumber), email = \(bind: u.email), email_verified = \(bind: u.emailVerified),
                display_name = \(bind: u.displayName), photo_url = \(bind: u.photoURL), disabled = \(bind: u.disabled),
                last_login_at = \(bind: u.lastLoginAt), last_refresh_at = \(bind: u.lastRefreshAt), valid_since = \(bind: u.validSince),
                custom_attributes = \(bind: u.customAttributes)
            WHERE local_id = \(bind: u.localID) RETURNING local_id
            """
        ).all()
        if rows.isEmpty { throw StoreError.notFound }
    }

    func deleteUser(localID: String) async throws -> Bool {
        try await db.raw("DELETE FROM refresh_tokens WHERE local_id = \(bind: localID)").run()
        return !(try await db.raw("DELETE FROM users WHERE local_id = \(bind: localID) RETURNING local_id").all()).isEmpty
    }

    func deleteAllUsers() async throws {
        try await db.raw("DELETE FROM refresh_tokens").run()
        try await db.raw("DELETE FROM users").run()
    }

    // MARK: Refresh tokens

    func refreshToken(hash: String) async throws -> RefreshTokenRecord? {
        guard
            let row = try await db.raw(
                """
                SELECT token_hash, local_id, created_at, auth_time, sign_in_provider, second_factor, second_factor_id
                FROM refresh_tokens WHERE token_hash = \(bind: hash)
                """
            ).first()
        else { return nil }
        return RefreshTokenRecord(
            tokenHash: try row.decode(column: "token_hash", as: String.self),
            localID: try row.decode(column: "local_id", as: String.self),
            createdAt: try row.decode(column: "created_at", as: Int64.self),
            authTime: try row.decode(column: "auth_time", as: Int64.self),
            signInProvider: try row.decode(column: "sign_in_provider", as: String.self),
            secondFactor: try row.decode(column: "second_factor", as: String?.self),
            secondFactorID: try row.decode(column: "second_factor_id", as: String?.self)
        )
    }

    func insertRefreshToken(_ t: RefreshTokenRecord) async throws {
        try await db.raw(
            """
            INSERT INTO refresh_tokens (token_hash, local_id, created_at, auth_time, sign_in_provider, second_factor, second_factor_id)
            VALUES (\(bind: t.tokenHash), \(bind: t.localID), \(bind: t.createdAt), \(bind: t.authTime), \(bind: t.signInProvider),
                \(bind: t.secondFactor), \(bind: t.secondFactorID))
            """
        ).run()
    }

    func touchRefresh(localID: String, at: Int64) async throws {
        try await db.raw("UPDATE users SET last_refresh_at = \(bind: at) WHERE local_id = \(bind: localID)").run()
    }

    // MARK: Outbox

    func outboxMessage(from row: any SQLRow) throws -> OutboxMessage {
        OutboxMessage(
            sequence: try row.decode(column: "seq", as: Int64.self),
            channel: try row.decode(column: "channel", as: String.self),
            recipient: try row.decode(column: "recipient", as: String.self),
            body: try row.decode(column: "body", as: String.self),
            locale: try row.decode(column: "locale", as: String.self),
            createdAt: try row.decode(column: "created_at", as: Int64.self),
            code: try row.decode(column: "code", as: String?.self),
            sessionID: try row.decode(column: "session_id", as: String?.self)
        )
    }

    func appendOutbox(_ m: OutboxMessage) async throws {
        try await db.raw(
            """
            INSERT INTO outbox (channel, recipient, body, locale, created_at, code, session_id)
            VALUES (\(bind: m.channel), \(bind: m.recipient), \(bind: m.body), \(bind: m.locale), \(bind: m.createdAt), \(bind: m.code), \(bind: m.sessionID))
            """
        ).run()
    }

    func outbox(limit: Int) async throws -> [OutboxMessage] {
        try await db.raw(
            "SELECT seq, channel, recipient, body, locale, created_at, code, session_id FROM outbox ORDER BY seq LIMIT \(bind: limit)"
        ).all().map(outboxMessage(from:))
    }
}
