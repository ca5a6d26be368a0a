import FlintCore

/// Statements of the operator's views of the users table, for every SQL-backed store: keyset pages, queries, batch
/// reads and deletes; accounts and their second factors (hence those aggregates' statements).
extension UserListingWrites where Self: SQLBacked & UsersWrites & SecondFactorsWrites {
    func users(tenant: TenantID, after: String?, limit: Int) async throws -> [UserRecord] {
        guard limit > 0 else { return [] }
        let key = SQLValue.text(tenant.rawValue)
        if let after {
            return try await db.query(
                .read(
                    "SELECT \(UserRows.columns) FROM users WHERE tenant_id = ? AND local_id > ? ORDER BY local_id LIMIT ?",
                    [key, .text(after), .integer(Int64(limit))], from: .users)
            ).map(user(from:))
        }
        return try await db.query(
            .read("SELECT \(UserRows.columns) FROM users WHERE tenant_id = ? ORDER BY local_id LIMIT ?", [key, .integer(Int64(limit))], from: .users)
        )
        .map(user(from:))
    }

    func users(tenant: TenantID, localIDs: [String]) async throws -> [UserRecord] {
        let unique = Array(Set(localIDs))
        return try await forEachSlice(of: unique, leading: [.text(tenant.rawValue)]) {
            .read("SELECT \(UserRows.columns) FROM users WHERE tenant_id = ? AND local_id IN (\($0))", $1, from: .users)
        }
        .map(user(from:))
        .sorted { $0.localID < $1.localID }
    }

    func mfaEnrollments(tenant: TenantID, localIDs: [String]) async throws -> [String: [MFAEnrollmentRecord]] {
        let rows = try await forEachSlice(of: Array(Set(localIDs)), leading: [.text(tenant.rawValue)]) {
            .read("SELECT \(Self.enrollmentColumns) FROM mfa_enrollments WHERE tenant_id = ? AND local_id IN (\($0))", $1, from: .mfaEnrollments)
        }
        let enrollments = try rows.map(enrollment(from:)).sorted { ($0.enrolledAt, $0.enrollmentID) < ($1.enrolledAt, $1.enrollmentID) }
        return Dictionary(grouping: enrollments, by: \.localID)
    }

    /// `WHERE …` and its values for the tenant and a filter.
    private func filterClause(_ tenant: TenantID, _ filter: UserFilter?) -> (sql: String, binds: [SQLValue]) {
        let key = SQLValue.text(tenant.rawValue)
        return switch filter {
        case nil: ("WHERE tenant_id = ?", [key])
        case .email(let email): ("WHERE tenant_id = ? AND email = ?", [key, .text(email)])
        case .phoneNumber(let phone): ("WHERE tenant_id = ? AND phone_number = ?", [key, .text(phone)])
        case .localID(let id): ("WHERE tenant_id = ? AND local_id = ?", [key, .text(id)])
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

    func users(tenant: TenantID, matching query: UserQuery) async throws -> [UserRecord] {
        guard query.limit > 0 else { return [] }
        let (filter, binds) = filterClause(tenant, query.filter)
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

    func userCount(tenant: TenantID, matching filter: UserFilter?) async throws -> Int {
        let (clause, binds) = filterClause(tenant, filter)
        return Int(try await db.first(.read("SELECT COUNT(*) AS n FROM users \(clause)", binds, from: .users))?.int64("n") ?? 0)
    }

    func userCountsByTenant(limit: Int) async throws -> TenantUserCounts {
        // One row per tenant with accounts (10,000 tenants: 10,000 short rows).
        let rows = try await db.query(.read("SELECT tenant_id, COUNT(*) AS n FROM users GROUP BY tenant_id", from: .users))
        let all = try rows.map { (tenant: TenantID(rawValue: try $0.string("tenant_id")), users: Int(try $0.int64("n"))) }
        let top = all.sorted { $0.users != $1.users ? $0.users > $1.users : $0.tenant.rawValue < $1.tenant.rawValue }.prefix(max(limit, 0))
        return TenantUserCounts(top: Array(top), tenants: all.count, users: all.reduce(0) { $0 + $1.users })
    }

    func deleteUsers(tenant: TenantID, localIDs: [String]) async throws -> Set<String> {
        let ids = Array(Set(localIDs))
        let key: [SQLValue] = [.text(tenant.rawValue)]
        for table in UserRows.keyedByAccount {
            _ = try await forEachSlice(of: ids, leading: key) {
                .write("DELETE FROM \(table.rawValue) WHERE tenant_id = ? AND local_id IN (\($0))", $1, into: table)
            }
        }
        let gone = try await forEachSlice(of: ids, leading: key) {
            .write("DELETE FROM users WHERE tenant_id = ? AND local_id IN (\($0)) RETURNING local_id", $1, into: .users)
        }
        return Set(try gone.map { try $0.string("local_id") })
    }

    func replaceMFAEnrollments(tenant: TenantID, localID: String, with enrollments: [MFAEnrollmentRecord]) async throws {
        try await db.run(
            .write(
                "DELETE FROM mfa_enrollments WHERE tenant_id = ? AND local_id = ?", [.text(tenant.rawValue), .text(localID)], into: .mfaEnrollments))
        for enrollment in enrollments { try await insertMFAEnrollment(enrollment) }
    }

    func recordSession(tenant: TenantID, localID: String, at: Instant) async throws {
        try await db.deferred(
            .write(
                "UPDATE users SET last_login_at = ?, last_refresh_at = ? WHERE tenant_id = ? AND local_id = ?",
                [.instant(at), .instant(at), .text(tenant.rawValue), .text(localID)], into: .users))

    }
}
