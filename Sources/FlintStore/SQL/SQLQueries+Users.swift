import FlintCore

extension SQLQueries {
    /// Where a `users` column keeps its value in a `UserRecord`, by the column's type.
    private enum UserField: Sendable {
        case text(any WritableKeyPath<UserRecord, String?> & Sendable)
        case bool(any WritableKeyPath<UserRecord, Bool> & Sendable)
        case integer(any WritableKeyPath<UserRecord, Int64> & Sendable)
        case optionalInstant(any WritableKeyPath<UserRecord, Instant?> & Sendable)
        /// An instant stored as whole seconds (`valid_since`).
        case seconds(any WritableKeyPath<UserRecord, Instant> & Sendable)

        /// The value `user` stores in the column.
        func value(of user: UserRecord) -> SQLValue {
            switch self {
            case .text(let field): user[keyPath: field].sql
            case .bool(let field): .bool(user[keyPath: field])
            case .integer(let field): .integer(user[keyPath: field])
            case .optionalInstant(let field): user[keyPath: field].sql
            case .seconds(let field): .seconds(user[keyPath: field])
            }
        }

        /// Sets the field of `user` from `column` of `row`.
        func read(_ column: String, of row: SQLRow, into user: inout UserRecord) throws {
            switch self {
            case .text(let field): user[keyPath: field] = try row.optionalString(column)
            case .bool(let field): user[keyPath: field] = try row.bool(column)
            case .integer(let field): user[keyPath: field] = try row.int64(column)
            case .optionalInstant(let field): user[keyPath: field] = try row.optionalInstant(column)
            case .seconds(let field): user[keyPath: field] = try row.instant(seconds: column)
            }
        }
    }

    /// The `users` columns a save writes (all but `local_id` and `created_at`, which never change) and the fields
    /// they hold: the one list the row reader and the SELECT, INSERT and UPDATE statements are built from.
    private static let userFields: [(column: String, field: UserField)] = [
        ("phone_number", .text(\.phoneNumber)),
        ("email", .text(\.email)),
        ("email_verified", .bool(\.emailVerified)),
        ("display_name", .text(\.displayName)),
        ("photo_url", .text(\.photoURL)),
        ("disabled", .bool(\.disabled)),
        ("last_login_at", .optionalInstant(\.lastLoginAt)),
        ("last_refresh_at", .optionalInstant(\.lastRefreshAt)),
        ("valid_since", .seconds(\.validSince)),
        ("custom_attributes", .text(\.customAttributes)),
        ("password_hash", .text(\.passwordHash)),
        ("password_updated_at", .optionalInstant(\.passwordUpdatedAt)),
        ("email_link_sign_in", .bool(\.emailLinkSignIn)),
        ("revocation_generation", .integer(\.revocationGeneration)),
    ]

    static let userColumns = (["local_id", "created_at"] + userFields.map(\.column)).joined(separator: ", ")

    /// The columns an INSERT names, in the order of ``userInsertValues(_:)``.
    static let userInsertColumns = (userFields.map(\.column) + ["local_id", "created_at"]).joined(separator: ", ")
    static let userInsertColumnCount = userFields.count + 2

    private static let insertUserSQL = """
        INSERT INTO users (\(userInsertColumns))
        VALUES (\(placeholders(userInsertColumnCount)))
        ON CONFLICT DO NOTHING RETURNING local_id
        """

    private static let updateUserSQL = """
        UPDATE users SET \(userFields.map { "\($0.column) = ?" }.joined(separator: ", "))
        WHERE local_id = ? RETURNING local_id
        """

    func user(from row: SQLRow) throws -> UserRecord {
        // `valid_since` is among the fields read next.
        var user = UserRecord(localID: try row.string("local_id"), createdAt: try row.instant("created_at"), validSince: .epoch)
        for (column, field) in Self.userFields { try field.read(column, of: row, into: &user) }
        return user
    }

    /// The values of `userFields`, in their order.
    private func userValues(_ u: UserRecord) -> [SQLValue] {
        Self.userFields.map { $0.field.value(of: u) }
    }

    /// The values an INSERT of `u` writes, in the order of ``userInsertColumns``.
    func userInsertValues(_ u: UserRecord) -> [SQLValue] {
        userValues(u) + [.text(u.localID), .instant(u.createdAt)]
    }

    /// The user whose `column` holds `value`; `locked`, with the row locked for the transaction (PostgreSQL's
    /// `FOR UPDATE`; SQLite's writes are serial anyway).
    private func user(where column: String, is value: String, locked: Bool = false) async throws -> UserRecord? {
        let sql = "SELECT \(Self.userColumns) FROM users WHERE \(column) = ?"
        let statement: SQLStatement =
            locked && db.dialect == .postgresql
            ? .lockingRead(sql + " FOR UPDATE", [.text(value)], from: .users) : .read(sql, [.text(value)], from: .users)
        return try await db.first(statement).map(user(from:))
    }

    func user(localID: String) async throws -> UserRecord? {
        try await user(where: "local_id", is: localID)
    }

    func user(phoneNumber: String) async throws -> UserRecord? {
        try await user(where: "phone_number", is: phoneNumber)
    }

    func user(email: String) async throws -> UserRecord? {
        try await user(where: "email", is: email)
    }

    func lockedUser(localID: String) async throws -> UserRecord? {
        try await user(where: "local_id", is: localID, locked: true)
    }

    func lockedUser(email: String) async throws -> UserRecord? {
        try await user(where: "email", is: email, locked: true)
    }

    func lockedUser(phoneNumber: String) async throws -> UserRecord? {
        try await user(where: "phone_number", is: phoneNumber, locked: true)
    }

    func userCount() async throws -> Int {
        Int(try await db.first(.read("SELECT COUNT(*) AS n FROM users", from: .users))?.int64("n") ?? 0)
    }

    /// Fails with ``StoreError/conflict(_:)`` instead of a driver error when a unique value is taken by another user.
    private func checkUnique(_ u: UserRecord) async throws {
        for (column, value, conflict) in [("phone_number", u.phoneNumber, StoreConflict.phoneNumber), ("email", u.email, .email)] {
            guard let value else { continue }
            if let owner = try await db.first(.read("SELECT local_id FROM users WHERE \(column) = ?", [.text(value)], from: .users))?.string(
                "local_id"),
                owner != u.localID
            {
                throw StoreError.conflict(conflict)
            }
        }
    }

    func insertUser(_ u: UserRecord) async throws {
        let rows = try await db.query(.write(Self.insertUserSQL, userInsertValues(u), into: .users))
        if rows.isEmpty {
            try await checkUnique(u)
            throw StoreError.conflict(.localID)
        }
    }

    func insertFreshUser(_ u: UserRecord) async throws {
        try await db.deferred(
            .write(
                "INSERT INTO users (\(Self.userInsertColumns)) VALUES (\(Self.placeholders(Self.userInsertColumnCount)))", userInsertValues(u),
                into: .users))
    }

    func updateUser(_ u: UserRecord) async throws {
        try await checkUnique(u)
        let rows = try await db.query(.write(Self.updateUserSQL, userValues(u) + [.text(u.localID)], into: .users))
        if rows.isEmpty { throw StoreError.notFound }
    }

    func recordSignIn(localID: String, at: Instant) async throws {
        try await db.deferred(.write("UPDATE users SET last_login_at = ? WHERE local_id = ?", [.instant(at), .text(localID)], into: .users))
    }

    func deleteUser(localID: String) async throws -> Bool {
        for table in [SQLTable.refreshTokens, .mfaEnrollments, .mfaRecoveryCodes, .federatedIdentities, .passkeys] {
            try await db.run(.write("DELETE FROM \(table.rawValue) WHERE local_id = ?", [.text(localID)], into: table))
        }
        return !(try await db.query(.write("DELETE FROM users WHERE local_id = ? RETURNING local_id", [.text(localID)], into: .users))).isEmpty
    }

    func deleteAllUsers() async throws {
        for table in [SQLTable.refreshTokens, .mfaEnrollments, .mfaRecoveryCodes, .federatedIdentities, .passkeys, .users] {
            try await db.run(.write("DELETE FROM \(table.rawValue)", into: table))
        }
    }

    // MARK: Refresh tokens

    func refreshToken(hash: String) async throws -> RefreshTokenRecord? {
        try await db.first(
            .read("SELECT \(Self.refreshTokenColumns) FROM refresh_tokens t WHERE t.token_hash = ?", [.text(hash)], from: .refreshTokens)
        )
        .map(refreshToken(from:))
    }

    func refreshSession(hash: String) async throws -> (token: RefreshTokenRecord, user: UserRecord?, hasIdentities: Bool)? {
        guard let row = try await db.first(.read(Self.refreshSessionSQL, [.text(hash)], from: .refreshTokens, .users, .federatedIdentities)) else {
            return nil
        }
        let user = try row.optionalString("local_id") == nil ? nil : try user(from: row)
        return (try refreshToken(from: row), user, try row.int64("has_identities") != 0)
    }

    /// A refresh token's columns, its account and creation time named apart from an account's.
    private static let refreshTokenColumns = """
        t.token_hash, t.local_id AS token_local_id, t.created_at AS token_created_at, t.auth_time, t.sign_in_provider, t.second_factor,
        t.second_factor_id, t.developer_claims
        """

    private static let refreshSessionSQL = """
        SELECT \(refreshTokenColumns), \(userColumns.split(separator: ", ").map { "u." + $0 }.joined(separator: ", ")),
            CASE WHEN EXISTS (SELECT 1 FROM federated_identities f WHERE f.local_id = t.local_id) THEN 1 ELSE 0 END AS has_identities
        FROM refresh_tokens t LEFT JOIN users u ON u.local_id = t.local_id WHERE t.token_hash = ?
        """

    private func refreshToken(from row: SQLRow) throws -> RefreshTokenRecord {
        RefreshTokenRecord(
            tokenHash: try row.string("token_hash"), localID: try row.string("token_local_id"), createdAt: try row.instant("token_created_at"),
            authTime: try row.instant(seconds: "auth_time"), signInProvider: try row.string("sign_in_provider"),
            secondFactor: try row.optionalString("second_factor").map(SecondFactorKind.init(rawValue:)),
            secondFactorID: try row.optionalString("second_factor_id"), developerClaims: try row.optionalString("developer_claims")
        )
    }

    func insertRefreshToken(_ t: RefreshTokenRecord) async throws {
        try await db.deferred(
            .write(
                """
                INSERT INTO refresh_tokens (token_hash, local_id, created_at, auth_time, sign_in_provider, second_factor, second_factor_id,
                    developer_claims)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    .text(t.tokenHash), .text(t.localID), .instant(t.createdAt), .seconds(t.authTime), .text(t.signInProvider),
                    (t.secondFactor?.rawValue).sql, t.secondFactorID.sql, t.developerClaims.sql,
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
}
