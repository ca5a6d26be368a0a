import FlintCore

/// The console's users list (``ConsoleUserListing``), for every SQL-backed store: keyset pages on the order's index
/// (migration 21's, led by the tenant), in two segments for an order whose column may be empty (the rows with a value, then those without,
/// each a range of the same index), with the row filters checked on a bounded window of the walk.
extension ConsoleWrites where Self: SQLBacked & UsersWrites {
    func consoleUsers(tenant: TenantID, _ listing: ConsoleUserListing) async throws -> ConsoleUserPage {
        guard listing.limit > 0 else { return ConsoleUserPage(users: [], next: nil, scanStopped: false) }
        let take = listing.limit + 1
        var found: [UserRecord] = []
        var budget = listing.scanLimit
        var cursor = listing.after
        // A cursor without a value is in the second segment of a nullable order (`localID` empty: at its start).
        let inEmptySegment = listing.order.isNullable && cursor != nil && cursor?.value == nil
        if !inEmptySegment {
            let walked = try await walk(tenant, listing, empty: false, after: cursor, take: take, scan: budget)
            found = walked.rows
            if let stop = walked.stoppedAt, found.count < take { return ConsoleUserPage(users: found, next: stop, scanStopped: true) }
            guard listing.order.isNullable, found.count < take else { return page(found, listing) }
            budget -= walked.scanned
            cursor = ConsoleUserCursor(value: nil, localID: "")
            if listing.checksRows && budget <= 0 { return ConsoleUserPage(users: found, next: cursor, scanStopped: true) }
        }
        let walked = try await walk(tenant, listing, empty: true, after: cursor, take: take - found.count, scan: budget)
        found += walked.rows
        if let stop = walked.stoppedAt, found.count < take { return ConsoleUserPage(users: found, next: stop, scanStopped: true) }
        return page(found, listing)
    }

    /// The page of `found` (at most one more than the limit): the next page starts after its last row when there
    /// was one more.
    private func page(_ found: [UserRecord], _ listing: ConsoleUserListing) -> ConsoleUserPage {
        let shown = Array(found.prefix(listing.limit))
        let next = found.count > listing.limit ? shown.last.map { Self.cursor(of: $0, listing.order) } : nil
        return ConsoleUserPage(users: shown, next: next, scanStopped: false)
    }

    /// Where a page that ends at `user` continues.
    static func cursor(of user: UserRecord, _ order: ConsoleUserListing.Order) -> ConsoleUserCursor {
        let value: String? =
            switch order {
            case .userID: nil
            case .created: String(user.createdAt.millisecondsSince1970)
            case .lastSignIn: user.lastLoginAt.map { String($0.millisecondsSince1970) }
            case .email: user.email
            }
        return ConsoleUserCursor(value: value, localID: user.localID)
    }

    /// One walk along the order's index in one segment (the rows with a value, or with `empty` those without),
    /// after `after`: up to `take` rows that pass the filters among at most `scan` rows read (every row passes when
    /// the listing checks none, and then the walk reads only `take`). `stoppedAt` is the last row read when the
    /// window was full before `take` rows passed: where the next page goes on.
    private func walk(
        _ tenant: TenantID, _ listing: ConsoleUserListing, empty: Bool, after: ConsoleUserCursor?, take: Int, scan: Int
    ) async throws -> (rows: [UserRecord], scanned: Int, stoppedAt: ConsoleUserCursor?) {
        let pg = db.dialect == .postgresql
        let id = pg ? #"local_id COLLATE "C""# : "local_id"
        let key: String? =
            switch listing.order {
            case .userID: nil
            case .created: "created_at"
            case .lastSignIn: "last_login_at"
            case .email: pg ? #"email COLLATE "C""# : "email"
            }
        let column: String? =
            switch listing.order {
            case .userID: nil
            case .created: "created_at"
            case .lastSignIn: "last_login_at"
            case .email: "email"
            }
        let (direction, past) = listing.descending ? ("DESC", "<") : ("ASC", ">")
        // The tenant first: every order's index leads with it, so a tenant's list is a walk of its own range.
        var conditions = ["tenant_id = ?"]
        var binds: [SQLValue] = [.text(tenant.rawValue)]
        if let column, listing.order.isNullable { conditions.append("\(column) IS \(empty ? "" : "NOT ")NULL") }
        if let after, !after.localID.isEmpty {
            if let key, let value = after.value, !empty {
                conditions.append("(\(key), \(id)) \(past) (?, ?)")
                binds += [listing.order == .email ? .text(value) : .integer(Int64(value) ?? 0), .text(after.localID)]
            } else {
                conditions.append("\(id) \(past) ?")
                binds.append(.text(after.localID))
            }
        }
        if listing.order == .created {
            if let from = listing.createdFrom { conditions.append("created_at >= ?"); binds.append(.instant(from)) }
            if let before = listing.createdBefore { conditions.append("created_at < ?"); binds.append(.instant(before)) }
        }
        let whereClause = "WHERE " + conditions.joined(separator: " AND ")
        // SQLite has no statistics: without being told, it reads the accounts without an email from the unique email
        // index and sorts them all (half a second at 1,000,000), where the order's own index walks them in order.
        let table = pg ? "users" : "users" + (Self.orderIndex(listing.order).map { " INDEXED BY \($0)" } ?? "")
        let order = (key.map { ["\($0) \(direction)"] } ?? []) + ["\(id) \(direction)"]
        guard listing.checksRows, take > 0 else {
            let rows = try await db.query(
                .read(
                    "SELECT \(UserRows.columns) FROM \(table) \(whereClause) ORDER BY \(order.joined(separator: ", ")) LIMIT ?",
                    binds + [.integer(Int64(max(take, 0)))], from: .users)
            ).map(user(from:))
            return (rows, rows.count, nil)
        }
        func window(_ columns: String) -> String {
            "SELECT \(columns) FROM \(table) \(whereClause) ORDER BY \(order.joined(separator: ", ")) LIMIT ?"
        }
        let windowBinds = binds + [.integer(Int64(max(scan, 0)))]
        let (filter, filterBinds) = rowFilter(listing)
        let rows = try await db.query(
            .read(
                "SELECT \(UserRows.columns) FROM (\(window(UserRows.columns))) AS w WHERE \(filter) "
                    + "ORDER BY \(order.joined(separator: ", ")) LIMIT ?",
                windowBinds + filterBinds + [.integer(Int64(take))], from: .users, .federatedIdentities, .mfaEnrollments)
        ).map(user(from:))
        if rows.count >= take { return (rows, scan, nil) }
        // How far the window reached, and its last row: the next page goes on from there when the window was full.
        let reversed = (key.map { ["\($0) \(listing.descending ? "ASC" : "DESC")"] } ?? []) + ["\(id) \(listing.descending ? "ASC" : "DESC")"]
        let keyColumns = (column.map { [$0] } ?? []) + ["local_id"]
        let last = try await db.first(
            .read(
                "SELECT \(keyColumns.joined(separator: ", ")), COUNT(*) OVER () AS scanned FROM "
                    + "(\(window(keyColumns.joined(separator: ", ")))) AS w "
                    + "ORDER BY \(reversed.joined(separator: ", ")) LIMIT 1",
                windowBinds, from: .users))
        guard let last else { return (rows, 0, nil) }
        let scanned = Int(try last.int64("scanned"))
        guard scanned >= scan else { return (rows, scanned, nil) }
        let value: String? =
            switch listing.order {
            case .userID: nil
            case .email: try last.optionalString("email")
            case .created, .lastSignIn: try column.flatMap { try last.optionalInt64($0) }.map { String($0) }
            }
        return (rows, scanned, ConsoleUserCursor(value: value, localID: try last.string("local_id")))
    }

    /// The index (migration 21) an order walks; the primary key for the local-ID order.
    static func orderIndex(_ order: ConsoleUserListing.Order) -> String? {
        switch order {
        case .userID: nil
        case .created: "users_created_at"
        case .lastSignIn: "users_last_login_at"
        case .email: "users_email_order"
        }
    }

    /// The listing's row filters on the window `w`, and their values (`TRUE` when none).
    private func rowFilter(_ listing: ConsoleUserListing) -> (sql: String, binds: [SQLValue]) {
        var conditions: [String] = []
        var binds: [SQLValue] = []
        let federated = "SELECT 1 FROM federated_identities f WHERE f.tenant_id = w.tenant_id AND f.local_id = w.local_id"
        switch listing.provider {
        case nil: break
        case "password":
            conditions.append("w.email IS NOT NULL AND (w.password_hash IS NOT NULL OR w.email_link_sign_in = ?)")
            binds.append(.bool(true))
        case "phone": conditions.append("w.phone_number IS NOT NULL")
        case "anonymous": conditions.append("w.email IS NULL AND w.phone_number IS NULL AND NOT EXISTS (\(federated))")
        case let provider?:
            conditions.append("EXISTS (\(federated) AND f.provider_id = ?)")
            binds.append(.text(provider))
        }
        if let disabled = listing.disabled { conditions.append("w.disabled = ?"); binds.append(.bool(disabled)) }
        if let verified = listing.emailVerified { conditions.append("w.email_verified = ?"); binds.append(.bool(verified)) }
        if let hasMFA = listing.hasMFA {
            conditions.append(
                "\(hasMFA ? "" : "NOT ")EXISTS (SELECT 1 FROM mfa_enrollments m WHERE m.tenant_id = w.tenant_id AND m.local_id = w.local_id)")
        }
        if listing.order != .created {
            if let from = listing.createdFrom { conditions.append("w.created_at >= ?"); binds.append(.instant(from)) }
            if let before = listing.createdBefore { conditions.append("w.created_at < ?"); binds.append(.instant(before)) }
        }
        return (conditions.isEmpty ? "TRUE" : conditions.joined(separator: " AND "), binds)
    }
}
