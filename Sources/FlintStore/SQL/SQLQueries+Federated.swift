import FlintCore

/// Statements of federated identities: one row per provider and raw ID, pointing at its account.
extension SQLQueries {
    static let identityColumns = "provider_id, raw_id, local_id, email, display_name, photo_url, phone_number, screen_name"
    static let identityColumnCount = 8

    /// An identity from `row`, whose identity columns are named with `prefix` (beside an account's, which share
    /// some of their names).
    func identity(from row: SQLRow, prefix: String = "") throws -> FederatedIdentityRecord {
        FederatedIdentityRecord(
            localID: try row.string(prefix + "local_id"), providerID: try row.string(prefix + "provider_id"),
            rawID: try row.string(prefix + "raw_id"), email: try row.optionalString(prefix + "email"),
            displayName: try row.optionalString(prefix + "display_name"), photoURL: try row.optionalString(prefix + "photo_url"),
            phoneNumber: try row.optionalString(prefix + "phone_number"), screenName: try row.optionalString(prefix + "screen_name")
        )
    }

    func userWithIdentities(phoneNumber: String, counters: [(key: CounterKey, windowStart: Instant)]) async throws -> (
        found: (user: UserRecord, identities: [FederatedIdentityRecord])?, hits: [Int64]
    ) {
        // Each row carries the counters' hits (empty when the window has none).
        let hitColumns = counters.indices.map { ", (SELECT hits FROM rate_counters WHERE counter_key = ? AND window_start = ?) AS hits_\($0)" }
        let rows = try await db.query(
            .read(
                Self.userWithIdentitiesColumns + hitColumns.joined() + Self.userWithIdentitiesByPhone,
                counters.flatMap { [SQLValue.text($0.key.rawValue), .instant($0.windowStart)] } + [.text(phoneNumber)],
                from: .rateCounters, .users, .federatedIdentities))
        return try accountAndHits(rows, counters: counters.count)
    }

    /// The account with its identities, and the hits of `count` counters, from rows of ``userWithIdentitiesColumns``
    /// and `hits_0`… columns: one row per identity, or one with empty identity columns, or one with empty account
    /// columns (no account); no row reads as no account and no hits.
    private func accountAndHits(_ rows: [SQLRow], counters count: Int) throws -> (
        found: (user: UserRecord, identities: [FederatedIdentityRecord])?, hits: [Int64]
    ) {
        guard let first = rows.first else { return (nil, Array(repeating: 0, count: count)) }
        let hits = try (0..<count).map { try first.optionalInt64("hits_\($0)") ?? 0 }
        guard try first.optionalString("local_id") != nil else { return (nil, hits) }
        let identities = try rows.filter { try $0.optionalString("fi_provider_id") != nil }.map { try identity(from: $0, prefix: "fi_") }
        return ((try user(from: first), Self.ordered(identities)), hits)
    }

    func spendPhoneSignInCode(
        sessionID: String, codeHash: String, now: Instant, maxAttempts: Int, counters: [NumberCounter]
    ) async throws -> SpentCodeRead {
        guard db.dialect == .postgresql else {
            // In process, two statements cost no round trip.
            let outcome = try await spendCode(sessionID: sessionID, codeHash: codeHash, now: now, maxAttempts: maxAttempts)
            guard case .spent(let session) = outcome else { return SpentCodeRead(outcome: outcome) }
            let read = try await userWithIdentities(
                phoneNumber: session.phoneNumber, counters: counters.map { ($0.key(for: session.phoneNumber), $0.windowStart) })
            return SpentCodeRead(outcome: outcome, owner: read.found, hits: read.hits)
        }
        // Over the network, one statement: the spend as a data-modifying `WITH`, its returned session joined with the
        // account holding its number: one row per identity, or one with empty account columns; no row when the code
        // was not spent. The counters' keys are ``NumberCounter/key(for:)`` written in SQL, as the number is known
        // only inside the statement.
        let sessionColumns = Self.sessionColumns.split(separator: ", ").map { "spent.\($0) AS cs_\($0)" }.joined(separator: ", ")
        let hitColumns = counters.indices.map {
            ", (SELECT hits FROM rate_counters WHERE counter_key = ? || spent.phone_number AND window_start = ?) AS hits_\($0)"
        }
        let rows = try await db.query(
            SQLStatement(
                with: ["spent AS (\(Self.spendStatement) RETURNING \(Self.sessionColumns))"],
                Self.userWithIdentitiesColumns + ", " + sessionColumns + hitColumns.joined() + """
                     FROM spent LEFT JOIN users u ON u.phone_number = spent.phone_number
                        LEFT JOIN federated_identities f ON f.local_id = u.local_id
                    """,
                Self.spendValues(sessionID, codeHash, now, maxAttempts)
                    + counters.flatMap { [SQLValue.text($0.prefix), .instant($0.windowStart)] },
                tables: [.users, .federatedIdentities, .rateCounters], effect: .write(.codeSessions)))
        guard let first = rows.first else {
            return SpentCodeRead(outcome: try await refusedSpend(sessionID: sessionID, now: now, maxAttempts: maxAttempts))
        }
        let read = try accountAndHits(rows, counters: counters.count)
        return SpentCodeRead(outcome: .spent(try session(from: first, prefix: "cs_")), owner: read.found, hits: read.hits)
    }

    /// The account's and its identities' columns.
    private static let userWithIdentitiesColumns = """
        SELECT \(userColumns.split(separator: ", ").map { "u." + $0 }.joined(separator: ", ")),
            \(identityColumns.split(separator: ", ").map { "f.\($0) AS fi_\($0)" }.joined(separator: ", "))
        """

    /// The account joined with its identities, beside a one-row table so that a number without an account still
    /// answers a row for the counters' columns.
    private static let userWithIdentitiesByPhone = """
         FROM (SELECT 1 AS flint_one) flint_one LEFT JOIN users u ON u.phone_number = ?
            LEFT JOIN federated_identities f ON f.local_id = u.local_id
        """

    /// The values an INSERT of `i` writes, in the order of ``identityColumns``.
    func identityValues(_ i: FederatedIdentityRecord) -> [SQLValue] {
        [
            .text(i.providerID), .text(i.rawID), .text(i.localID), i.email.sql, i.displayName.sql, i.photoURL.sql, i.phoneNumber.sql,
            i.screenName.sql,
        ]
    }

    /// Identities in the order answers list them: by provider, then raw ID.
    static func ordered(_ identities: [FederatedIdentityRecord]) -> [FederatedIdentityRecord] {
        identities.sorted { ($0.providerID, $0.rawID) < ($1.providerID, $1.rawID) }
    }

    func user(federatedID: FederatedIdentityKey) async throws -> UserRecord? {
        try await db.first(
            .read(
                """
                SELECT \(Self.userColumns) FROM users
                WHERE local_id = (SELECT local_id FROM federated_identities WHERE provider_id = ? AND raw_id = ?)
                """,
                [.text(federatedID.providerID), .text(federatedID.rawID)], from: .users, .federatedIdentities)
        ).map(user(from:))
    }

    func federatedIdentities(localID: String) async throws -> [FederatedIdentityRecord] {
        Self.ordered(
            try await db.query(
                .read("SELECT \(Self.identityColumns) FROM federated_identities WHERE local_id = ?", [.text(localID)], from: .federatedIdentities)
            ).map {
                try identity(from: $0)
            })
    }

    func federatedIdentities(email: String) async throws -> [FederatedIdentityRecord] {
        Self.ordered(
            try await db.query(
                .read("SELECT \(Self.identityColumns) FROM federated_identities WHERE email = ?", [.text(email)], from: .federatedIdentities)
            ).map {
                try identity(from: $0)
            })
    }

    func federatedIdentities(localIDs: [String]) async throws -> [String: [FederatedIdentityRecord]] {
        let rows = try await forEachSlice(of: Array(Set(localIDs))) {
            .read("SELECT \(Self.identityColumns) FROM federated_identities WHERE local_id IN (\($0))", $1, from: .federatedIdentities)
        }

        return Dictionary(grouping: Self.ordered(try rows.map { try identity(from: $0) }), by: \.localID)
    }

    func linkFederatedIdentity(_ identity: FederatedIdentityRecord) async throws {
        let owner = try await db.first(
            .read(
                "SELECT local_id FROM federated_identities WHERE provider_id = ? AND raw_id = ?",
                [.text(identity.providerID), .text(identity.rawID)],
                from: .federatedIdentities)
        )
        if let owner, try owner.string("local_id") != identity.localID { throw StoreError.conflict(.federatedIdentity) }
        // One identity per provider and account: linking again replaces the one the account had.
        try await db.run(
            .write(
                "DELETE FROM federated_identities WHERE local_id = ? AND provider_id = ?", [.text(identity.localID), .text(identity.providerID)],
                into: .federatedIdentities))
        let inserted = try await db.query(
            .write(
                """
                INSERT INTO federated_identities (\(Self.identityColumns)) VALUES (\(Self.placeholders(Self.identityColumnCount)))
                ON CONFLICT DO NOTHING RETURNING raw_id
                """,
                identityValues(identity), into: .federatedIdentities)
        )
        if inserted.isEmpty { throw StoreError.conflict(.federatedIdentity) }
    }

    func unlinkFederatedIdentities(localID: String, providerIDs: [String]) async throws -> Int {
        var removed = 0
        for provider in Set(providerIDs) {
            removed += try await db.query(
                .write(
                    "DELETE FROM federated_identities WHERE local_id = ? AND provider_id = ? RETURNING raw_id", [.text(localID), .text(provider)],
                    into: .federatedIdentities)
            ).count
        }
        return removed
    }

    /// The owners of `keys`: one indexed lookup per provider and chunk of ``lookupWidth`` raw IDs.
    func identityOwners(_ keys: [FederatedIdentityKey]) async throws -> [FederatedIdentityKey: String] {
        var owners: [FederatedIdentityKey: String] = [:]
        let width = lookupWidth
        for (provider, group) in Dictionary(grouping: Set(keys), by: \.providerID) {
            let rawIDs = group.map(\.rawID)
            for round in 0..<(rawIDs.count + width - 1) / width {
                let rows = try await db.query(
                    .read(
                        "SELECT raw_id, local_id FROM federated_identities WHERE provider_id = ? AND raw_id IN (\(Self.placeholders(width)))",
                        [.text(provider)] + Self.padded(rawIDs, chunk: round, width: width), from: .federatedIdentities)
                )
                for row in rows {
                    owners[FederatedIdentityKey(providerID: provider, rawID: try row.string("raw_id"))] = try row.string("local_id")
                }
            }
        }
        return owners
    }

    /// Inserts identities with multi-row statements; ``StoreError/conflict(_:)`` (``StoreConflict/federatedIdentity``) if one is taken.
    func insertIdentities(_ identities: [FederatedIdentityRecord]) async throws {
        try await insertRows(
            identities, into: .federatedIdentities, columns: Self.identityColumns, width: Self.identityColumnCount, key: "raw_id",

            conflict: .federatedIdentity, values: identityValues)
    }
}
