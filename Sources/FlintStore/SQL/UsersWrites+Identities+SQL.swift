import FlintCore

/// The federated identities' statement texts, computed once (a protocol extension keeps no stored values).
enum IdentityRows {
    static let columns = "tenant_id, provider_id, raw_id, local_id, email, display_name, photo_url, phone_number, screen_name"
    static let columnCount = 9

    /// The account's and its identities' columns.
    static let accountColumns = """
        SELECT \(UserRows.columns.split(separator: ", ").map { "u." + $0 }.joined(separator: ", ")),
            \(columns.split(separator: ", ").map { "f.\($0) AS fi_\($0)" }.joined(separator: ", "))
        """

    /// The account of the tenant's identity at a provider (tenant, provider, raw ID), found through the identities'
    /// primary key and the users' one.
    static let userByFederatedID = """
        SELECT \(UserRows.columns) FROM users
        WHERE tenant_id = ? AND local_id = (
            SELECT local_id FROM federated_identities WHERE tenant_id = ? AND provider_id = ? AND raw_id = ?)
        """

    /// The account joined with its identities, beside a one-row table so that a number without an account still
    /// answers a row for the counters' columns.
    static let byPhone = """
         FROM (SELECT 1 AS flint_one) flint_one LEFT JOIN users u ON u.tenant_id = ? AND u.phone_number = ?
            LEFT JOIN federated_identities f ON f.tenant_id = u.tenant_id AND f.local_id = u.local_id
        """
}

/// Statements of federated identities, for every SQL-backed store: one row per provider and raw ID, pointing at its
/// account; an account read with its identities (and a phone sign-in's counters) in one statement.
extension UsersWrites where Self: SQLBacked {
    /// An identity from `row`, whose identity columns are named with `prefix` (beside an account's, which share
    /// some of their names).
    func identity(from row: SQLRow, prefix: String = "") throws -> FederatedIdentityRecord {
        FederatedIdentityRecord(
            tenant: TenantID(rawValue: try row.string(prefix + "tenant_id")), localID: try row.string(prefix + "local_id"),
            providerID: try row.string(prefix + "provider_id"),
            rawID: try row.string(prefix + "raw_id"), email: try row.optionalString(prefix + "email"),
            displayName: try row.optionalString(prefix + "display_name"), photoURL: try row.optionalString(prefix + "photo_url"),
            phoneNumber: try row.optionalString(prefix + "phone_number"), screenName: try row.optionalString(prefix + "screen_name")
        )
    }

    func userWithIdentities(tenant: TenantID, phoneNumber: String, counters: [(key: CounterKey, windowStart: Instant)]) async throws -> (
        found: (user: UserRecord, identities: [FederatedIdentityRecord])?, hits: [Int64]
    ) {
        // Each row carries the counters' hits (empty when the window has none).
        let hitColumns = counters.indices.map { ", (SELECT hits FROM rate_counters WHERE counter_key = ? AND window_start = ?) AS hits_\($0)" }
        let rows = try await db.query(
            .read(
                IdentityRows.accountColumns + hitColumns.joined() + IdentityRows.byPhone,
                counters.flatMap { [SQLValue.text($0.key.rawValue), .instant($0.windowStart)] } + [.text(tenant.rawValue), .text(phoneNumber)],
                from: .rateCounters, .users, .federatedIdentities))
        return try accountAndHits(rows, counters: counters.count)
    }

    /// The account with its identities, and the hits of `count` counters, from rows of ``IdentityRows/accountColumns``
    /// and `hits_0`… columns: one row per identity, or one with empty identity columns, or one with empty account
    /// columns (no account); no row reads as no account and no hits.
    func accountAndHits(_ rows: [SQLRow], counters count: Int) throws -> (
        found: (user: UserRecord, identities: [FederatedIdentityRecord])?, hits: [Int64]
    ) {
        guard let first = rows.first else { return (nil, Array(repeating: 0, count: count)) }
        let hits = try (0..<count).map { try first.optionalInt64("hits_\($0)") ?? 0 }
        guard try first.optionalString("local_id") != nil else { return (nil, hits) }
        let identities = try rows.filter { try $0.optionalString("fi_provider_id") != nil }.map { try identity(from: $0, prefix: "fi_") }
        return ((try user(from: first), Self.ordered(identities)), hits)
    }

    /// The values an INSERT of `i` writes, in the order of ``IdentityRows/columns``.
    func identityValues(_ i: FederatedIdentityRecord) -> [SQLValue] {
        [
            .text(i.tenant.rawValue), .text(i.providerID), .text(i.rawID), .text(i.localID), i.email.sql, i.displayName.sql, i.photoURL.sql,
            i.phoneNumber.sql,
            i.screenName.sql,
        ]
    }

    /// Identities in the order answers list them: by provider, then raw ID.
    static func ordered(_ identities: [FederatedIdentityRecord]) -> [FederatedIdentityRecord] {
        identities.sorted { ($0.providerID, $0.rawID) < ($1.providerID, $1.rawID) }
    }

    func user(tenant: TenantID, federatedID: FederatedIdentityKey) async throws -> UserRecord? {
        try await db.first(
            .read(
                IdentityRows.userByFederatedID,
                [.text(tenant.rawValue), .text(tenant.rawValue), .text(federatedID.providerID), .text(federatedID.rawID)], from: .users,
                .federatedIdentities)
        ).map(user(from:))
    }

    func federatedIdentities(tenant: TenantID, localID: String) async throws -> [FederatedIdentityRecord] {
        Self.ordered(
            try await db.query(
                .read(
                    "SELECT \(IdentityRows.columns) FROM federated_identities WHERE tenant_id = ? AND local_id = ?",
                    [.text(tenant.rawValue), .text(localID)], from: .federatedIdentities)
            ).map {
                try identity(from: $0)
            })
    }

    func federatedIdentities(tenant: TenantID, email: String) async throws -> [FederatedIdentityRecord] {
        Self.ordered(
            try await db.query(
                .read(
                    "SELECT \(IdentityRows.columns) FROM federated_identities WHERE tenant_id = ? AND email = ?",
                    [.text(tenant.rawValue), .text(email)], from: .federatedIdentities)
            ).map {
                try identity(from: $0)
            })
    }

    func federatedIdentities(tenant: TenantID, localIDs: [String]) async throws -> [String: [FederatedIdentityRecord]] {
        let rows = try await forEachSlice(of: Array(Set(localIDs)), leading: [.text(tenant.rawValue)]) {
            .read(
                "SELECT \(IdentityRows.columns) FROM federated_identities WHERE tenant_id = ? AND local_id IN (\($0))", $1, from: .federatedIdentities
            )
        }

        return Dictionary(grouping: Self.ordered(try rows.map { try identity(from: $0) }), by: \.localID)
    }

    func linkFederatedIdentity(_ identity: FederatedIdentityRecord) async throws {
        let owner = try await db.first(
            .read(
                "SELECT local_id FROM federated_identities WHERE tenant_id = ? AND provider_id = ? AND raw_id = ?",
                [.text(identity.tenant.rawValue), .text(identity.providerID), .text(identity.rawID)],
                from: .federatedIdentities)
        )
        if let owner, try owner.string("local_id") != identity.localID { throw StoreError.conflict(.federatedIdentity) }
        // One identity per provider and account: linking again replaces the one the account had.
        try await db.run(
            .write(
                "DELETE FROM federated_identities WHERE tenant_id = ? AND local_id = ? AND provider_id = ?",
                [.text(identity.tenant.rawValue), .text(identity.localID), .text(identity.providerID)],
                into: .federatedIdentities))
        let inserted = try await db.query(
            .write(
                """
                INSERT INTO federated_identities (\(IdentityRows.columns)) VALUES (\(Self.placeholders(IdentityRows.columnCount)))
                ON CONFLICT DO NOTHING RETURNING raw_id
                """,
                identityValues(identity), into: .federatedIdentities)
        )
        if inserted.isEmpty { throw StoreError.conflict(.federatedIdentity) }
    }

    func unlinkFederatedIdentities(tenant: TenantID, localID: String, providerIDs: [String]) async throws -> Int {
        var removed = 0
        for provider in Set(providerIDs) {
            removed += try await db.query(
                .write(
                    "DELETE FROM federated_identities WHERE tenant_id = ? AND local_id = ? AND provider_id = ? RETURNING raw_id",
                    [.text(tenant.rawValue), .text(localID), .text(provider)],
                    into: .federatedIdentities)
            ).count
        }
        return removed
    }
}
