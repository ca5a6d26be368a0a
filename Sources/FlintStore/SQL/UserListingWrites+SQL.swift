import FlintCore

/// Statements of the operator's views of the users table, for every SQL-backed store: keyset pages, queries, batch
/// reads and deletes; accounts and their second factors (hence those aggregates' statements).
extension UserListingWrites where Self: SQLBacked & UsersWrites & SecondFactorsWrites {
    func users(after: String?, limit: Int) async throws -> [UserRecord] {
        guard limit > 0 else { return [] }
        if let after {
            return try await db.query(
                .read(
                    "SELECT \(UserRows.columns) FROM users WHERE local_id > ? ORDER BY local_id LIMIT ?", [.text(after), .integer(Int64(limit))],
                    from: .users)
            ).map(user(from:))
        }
        return try await db.query(.read("SELECT \(UserRows.columns) FROM users ORDER BY local_id LIMIT ?", [.integer(Int64(limit))], from: .users))
            .map(user(from:))
    }

    func users(localIDs: [String]) async throws -> [UserRecord] {
        let unique = Array(Set(localIDs))
        return try await forEachSlice(of: unique) { .read("SELECT \(UserRows.columns) FROM users WHERE local_id IN (\($0))", $1, from: .users) }
            .map(user(from:))
            .sorted { $0.localID < $1.localID }
    }

    func mfaEnrollments(localIDs: [String]) async throws -> [String: [MFAEnrollmentRecord]] {
        let rows = try await forEachSlice(of: Array(Set(localIDs))) {
            .read("SELECT \(Self.enrollmentColumns) FROM mfa_enrollments WHERE local_id IN (\($0))", $1, from: .mfaEnrollments)
        }
        let enrollments = try rows.map(enrollment(from:)).sorted { ($0.enrolledAt, $0.enrollmentID) < ($1.enrolledAt, $1.enrollmentID) }
        return Dictionary(grouping: enrollments, by: \.localID)
    }

    /// `WHERE …` and its values for a filter; empty for none.
    private func filterClause(_ filter: UserFilter?) -> (sql: String, binds: [SQLValue]) {
        switch filter {
        case nil: ("", [])
        case .email(let email): ("WHERE email = ?", [.text(email)])
        case .phoneNumber(let phone): ("WHERE phone_number = ?", [.text(phone)])
        case .localID(let id): ("WHERE local_id = ?", [.text(id)])
        }
    }

    /// The column a sort field reads.
    private static func column(_ field: UserSortField) -> String {
        switch field {
        case .name: "display_name"
        case .createdAt: "created_at"
        case .lastLoginAt: "last_login_at"
        case .email: "email"
        default: "local_id"
        }
    }

    func users(matching query: UserQuery) async throws -> [UserRecord] {
        guard query.limit > 0 else { return [] }
        let (filter, binds) = filterClause(query.filter)
        let direction = query.descending ? "DESC" : "ASC"
        let column = Self.column(query.sortBy)
        // Accounts without a value sort after the others (before them when descending); ties go by local ID.
        let order =
            column == "local_id"
            ? "local_id \(direction)" : "(\(column) IS NULL) \(direction), \(column) \(direction), local_id \(direction)"
        return try await db.query(
            .read(
                "SELECT \(UserRows.columns) FROM users \(filter) ORDER BY \(order) LIMIT ? OFFSET ?",
                binds + [.integer(Int64(query.limit)), .integer(Int64(max(0, query.offset)))], from: .users)
        ).map(user(from:))
    }

    func userCount(matching filter: UserFilter?) async throws -> Int {
        let (clause, binds) = filterClause(filter)
        return Int(try await db.first(.read("SELECT COUNT(*) AS n FROM users \(clause)", binds, from: .users))?.int64("n") ?? 0)
    }

    func deleteUsers(localIDs: [String]) async throws -> Set<String> {
        let ids = Array(Set(localIDs))
        for table in [SQLTable.refreshTokens, .mfaEnrollments, .mfaRecoveryCodes, .federatedIdentities, .passkeys] {
            _ = try await forEachSlice(of: ids) { .write("DELETE FROM \(table.rawValue) WHERE local_id IN (\($0))", $1, into: table) }
        }
        let gone = try await forEachSlice(of: ids) { .write("DELETE FROM users WHERE local_id IN (\($0)) RETURNING local_id", $1, into: .users) }
        return Set(try gone.map { try $0.string("local_id") })
    }

    func replaceMFAEnrollments(localID: String, with enrollments: [MFAEnrollmentRecord]) async throws {
        try await db.run(.write("DELETE FROM mfa_enrollments WHERE local_id = ?", [.text(localID)], into: .mfaEnrollments))
        for enrollment in enrollments { try await insertMFAEnrollment(enrollment) }
    }

    func recordSession(localID: String, at: Instant) async throws {
        try await db.deferred(
            .write(
                "UPDATE users SET last_login_at = ?, last_refresh_at = ? WHERE local_id = ?", [.instant(at), .instant(at), .text(localID)],
                into: .users))

    }
}
