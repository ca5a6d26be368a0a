import FlintCore

/// The `users` table's shape, computed once (a protocol extension keeps no stored values): the columns a save writes
/// (all but the key, `tenant_id` and `local_id`, and `created_at`, which never change) and the fields they hold, the one list the row reader and
/// the SELECT, INSERT and UPDATE statements are built from.
enum UserRows {
    /// Where a `users` column keeps its value in a `UserRecord`, by the column's type.
    fileprivate enum Field: Sendable {
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

    /// The columns a save writes and the fields they hold.
    fileprivate static let fields: [(column: String, field: Field)] = [
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

    /// Every column, as a SELECT names them.
    static let columns = (["tenant_id", "local_id", "created_at"] + fields.map(\.column)).joined(separator: ", ")

    /// The columns an INSERT names, in the order of ``UsersWrites/userInsertValues(_:)``.
    static let insertColumns = (fields.map(\.column) + ["tenant_id", "local_id", "created_at"]).joined(separator: ", ")
    static let insertColumnCount = fields.count + 3

    /// A sign-in's read of the tenant's account whose `column` holds a value: one probe of the index led by the tenant.
    static func lookup(by column: String) -> String {
        "SELECT \(columns) FROM users WHERE tenant_id = ? AND \(column) = ?"
    }

    /// The tables whose rows belong to an account (by `tenant_id` and `local_id`), deleted with it.
    static let keyedByAccount: [SQLTable] = [.refreshTokens, .mfaEnrollments, .mfaRecoveryCodes, .federatedIdentities, .passkeys]

    fileprivate static let updateSQL = """
        UPDATE users SET \(fields.map { "\($0.column) = ?" }.joined(separator: ", "))
        WHERE tenant_id = ? AND local_id = ? RETURNING local_id
        """
}

/// Statements of accounts, for every SQL-backed store: the users table read, locked, inserted, rewritten and deleted
/// with what hangs off an account (its federated identities: `UsersWrites+Identities+SQL.swift`).
extension UsersWrites where Self: SQLBacked {
    private static var insertUserSQL: String {
        """
        INSERT INTO users (\(UserRows.insertColumns))
        VALUES (\(placeholders(UserRows.insertColumnCount)))
        ON CONFLICT DO NOTHING RETURNING local_id
        """
    }

    func user(from row: SQLRow) throws -> UserRecord {
        // `valid_since` is among the fields read next.
        var user = UserRecord(
            tenant: TenantID(rawValue: try row.string("tenant_id")), localID: try row.string("local_id"), createdAt: try row.instant("created_at"),
            validSince: .epoch)
        for (column, field) in UserRows.fields { try field.read(column, of: row, into: &user) }
        return user
    }

    /// The values of ``UserRows/fields``, in their order.
    private func userValues(_ u: UserRecord) -> [SQLValue] {
        UserRows.fields.map { $0.field.value(of: u) }
    }

    /// The values an INSERT of `u` writes, in the order of ``UserRows/insertColumns``.
    func userInsertValues(_ u: UserRecord) -> [SQLValue] {
        userValues(u) + [.text(u.tenant.rawValue), .text(u.localID), .instant(u.createdAt)]
    }

    /// The user of `tenant` whose `column` holds `value` (one probe of the index led by the tenant); `locked`, with
    /// the row locked for the transaction (PostgreSQL's `FOR UPDATE`; SQLite's writes are serial anyway).
    private func user(_ tenant: TenantID, where column: String, is value: String, locked: Bool = false) async throws -> UserRecord? {
        let sql = UserRows.lookup(by: column)
        let binds: [SQLValue] = [.text(tenant.rawValue), .text(value)]
        let statement: SQLStatement =
            locked && db.dialect == .postgresql
            ? .lockingRead(sql + " FOR UPDATE", binds, from: .users) : .read(sql, binds, from: .users)
        return try await db.first(statement).map(user(from:))
    }

    func user(tenant: TenantID, localID: String) async throws -> UserRecord? {
        try await user(tenant, where: "local_id", is: localID)
    }

    func user(tenant: TenantID, phoneNumber: String) async throws -> UserRecord? {
        try await user(tenant, where: "phone_number", is: phoneNumber)
    }

    func user(tenant: TenantID, email: String) async throws -> UserRecord? {
        try await user(tenant, where: "email", is: email)
    }

    func lockedUser(tenant: TenantID, localID: String) async throws -> UserRecord? {
        try await user(tenant, where: "local_id", is: localID, locked: true)
    }

    func lockedUser(tenant: TenantID, email: String) async throws -> UserRecord? {
        try await user(tenant, where: "email", is: email, locked: true)
    }

    func lockedUser(tenant: TenantID, phoneNumber: String) async throws -> UserRecord? {
        try await user(tenant, where: "phone_number", is: phoneNumber, locked: true)
    }

    func userCount(tenant: TenantID) async throws -> Int {
        Int(try await db.first(.read("SELECT COUNT(*) AS n FROM users WHERE tenant_id = ?", [.text(tenant.rawValue)], from: .users))?.int64("n") ?? 0)
    }

    /// Fails with ``StoreError/conflict(_:)`` instead of a driver error when a unique value is taken by another user.
    private func checkUnique(_ u: UserRecord) async throws {
        for (column, value, conflict) in [("phone_number", u.phoneNumber, StoreConflict.phoneNumber), ("email", u.email, .email)] {
            guard let value else { continue }
            if let owner = try await db.first(
                .read("SELECT local_id FROM users WHERE tenant_id = ? AND \(column) = ?", [.text(u.tenant.rawValue), .text(value)], from: .users)
            )?.string("local_id"),
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
                "INSERT INTO users (\(UserRows.insertColumns)) VALUES (\(Self.placeholders(UserRows.insertColumnCount)))", userInsertValues(u),
                into: .users))
    }

    func updateUser(_ u: UserRecord) async throws {
        try await checkUnique(u)
        let rows = try await db.query(.write(UserRows.updateSQL, userValues(u) + [.text(u.tenant.rawValue), .text(u.localID)], into: .users))
        if rows.isEmpty { throw StoreError.notFound }
    }

    func recordSignIn(tenant: TenantID, localID: String, at: Instant) async throws {
        try await db.deferred(
            .write(
                "UPDATE users SET last_login_at = ? WHERE tenant_id = ? AND local_id = ?", [.instant(at), .text(tenant.rawValue), .text(localID)],
                into: .users))
    }

    func deleteUser(tenant: TenantID, localID: String) async throws -> Bool {
        let key: [SQLValue] = [.text(tenant.rawValue), .text(localID)]
        for table in UserRows.keyedByAccount {
            try await db.run(.write("DELETE FROM \(table.rawValue) WHERE tenant_id = ? AND local_id = ?", key, into: table))
        }
        return !(try await db.query(.write("DELETE FROM users WHERE tenant_id = ? AND local_id = ? RETURNING local_id", key, into: .users)))
            .isEmpty
    }

    func deleteAllUsers(tenant: TenantID) async throws {
        for table in UserRows.keyedByAccount + [.users] {
            try await db.run(.write("DELETE FROM \(table.rawValue) WHERE tenant_id = ?", [.text(tenant.rawValue)], into: table))
        }
    }
}
