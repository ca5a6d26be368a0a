import FlintCore

/// Statements of bulk import and export, for every SQL-backed store: clash checks over whole batches, multi-row inserts,
/// keyset pages; accounts with their identities and passkeys (hence those aggregates' statements).
///
/// Statements have a few fixed shapes so that SQLite's statement cache keeps them prepared: lookups bind lists of
/// ``lookupWidth`` values (padded with `NULL`, which matches nothing), inserts bind ``rowsPerInsert`` rows, or a
/// power of two fewer for a batch's tail. PostgreSQL gets wider statements: each is a round trip there.
extension UserImportWrites where Self: SQLBacked & UsersWrites & PasskeysWrites {
    /// Values per `IN (…)` list.
    var lookupWidth: Int { db.dialect == .postgresql ? 1024 : 128 }
    /// Rows per multi-row `INSERT` (17 columns each: 1,088 parameters on SQLite, 8,704 on PostgreSQL).
    var rowsPerInsert: Int { db.dialect == .postgresql ? 512 : 64 }

    func importClashes(
        tenant: TenantID, localIDs: [String], emails: [String], phoneNumbers: [String], enrollmentIDs: [String], identities: [FederatedIdentityKey]
    ) async throws -> ImportClashes {
        var clashes = ImportClashes()
        clashes.identityOwners = try await identityOwners(tenant: tenant, identities)
        let width = lookupWidth
        let lists = Self.placeholders(width)
        let rounds = (max(localIDs.count, emails.count, phoneNumbers.count) + width - 1) / width
        for round in 0..<rounds {
            let binds = [localIDs, emails, phoneNumbers].flatMap { Self.padded($0, chunk: round, width: width) }
            let rows = try await db.query(
                .read(
                    """
                    SELECT local_id, email, phone_number, revocation_generation FROM users
                    WHERE tenant_id = ? AND (local_id IN (\(lists)) OR email IN (\(lists)) OR phone_number IN (\(lists)))
                    """,
                    [.text(tenant.rawValue)] + binds, from: .users)
            )
            for row in rows {
                let owner = try row.string("local_id")
                clashes.generations[owner] = try row.int64("revocation_generation")
                if let email = try row.optionalString("email") { clashes.emailOwners[email] = owner }
                if let phone = try row.optionalString("phone_number") { clashes.phoneOwners[phone] = owner }
            }
        }
        for round in 0..<(enrollmentIDs.count + width - 1) / width {
            let rows = try await db.query(
                .read(
                    "SELECT enrollment_id, local_id FROM mfa_enrollments WHERE enrollment_id IN (\(lists))",
                    Self.padded(enrollmentIDs, chunk: round, width: width), from: .mfaEnrollments)
            )
            for row in rows { clashes.enrollmentOwners[try row.string("enrollment_id")] = try row.string("local_id") }
        }
        // Rows found through one column may hold values of the batch in another only by chance; keep only the
        // values asked about, so callers see exactly the clashes.
        let (ids, mails, phones) = (Set(localIDs), Set(emails), Set(phoneNumbers))
        clashes.generations = clashes.generations.filter { ids.contains($0.key) }
        clashes.emailOwners = clashes.emailOwners.filter { mails.contains($0.key) }
        clashes.phoneOwners = clashes.phoneOwners.filter { phones.contains($0.key) }
        return clashes
    }

    func insertImportedUsers(_ accounts: [UserAndFactors]) async throws {
        let users = accounts.map(\.user)
        try await insertRows(
            users, into: .users, columns: UserRows.insertColumns, width: UserRows.insertColumnCount, key: "local_id",
            conflict: .localID, values: userInsertValues)
        try await insertRows(
            accounts.flatMap(\.enrollments),
            into: .mfaEnrollments,
            columns: "tenant_id, enrollment_id, local_id, factor, display_name, phone_number, totp_secret, enrolled_at, last_totp_step",
            width: 9, key: "enrollment_id", conflict: .secondFactor
        ) { e in
            [
                .text(e.tenant.rawValue), .text(e.enrollmentID), .text(e.localID), .text(e.factor.rawValue), e.displayName.sql, e.phoneNumber.sql,
                e.sealedTOTPSecret.sql,
                .instant(e.enrolledAt), e.lastTOTPStep.sql,
            ]
        }
        try await insertIdentities(accounts.flatMap(\.identities))
        for passkey in accounts.flatMap(\.passkeys) { try await insertPasskey(passkey) }
    }

    func exportPage(tenant: TenantID, after localID: String?, limit: Int) async throws -> [UserAndFactors] {
        let key = SQLValue.text(tenant.rawValue)
        let rows =
            if let localID {
                try await db.query(
                    .read(
                        "SELECT \(UserRows.columns) FROM users WHERE tenant_id = ? AND local_id > ? ORDER BY local_id LIMIT ?",
                        [key, .text(localID), .integer(Int64(limit))],
                        from: .users))
            } else {
                try await db.query(
                    .read(
                        "SELECT \(UserRows.columns) FROM users WHERE tenant_id = ? ORDER BY local_id LIMIT ?", [key, .integer(Int64(limit))],
                        from: .users
                    ))
            }
        let users = try rows.map(user(from:))
        guard let first = users.first?.localID, let last = users.last?.localID else { return [] }
        let range: [SQLValue] = [key, .text(first), .text(last)]
        var factors: [String: [MFAEnrollmentRecord]] = [:]
        for row in try await db.query(
            .read(
                """
                SELECT enrollment_id, local_id, factor, display_name, phone_number, totp_secret, enrolled_at, last_totp_step
                FROM mfa_enrollments WHERE tenant_id = ? AND local_id >= ? AND local_id <= ? ORDER BY local_id, enrolled_at, enrollment_id
                """,
                range, from: .mfaEnrollments)
        ) {
            let enrollment = MFAEnrollmentRecord(
                tenant: tenant, enrollmentID: try row.string("enrollment_id"), localID: try row.string("local_id"),
                factor: SecondFactorKind(rawValue: try row.string("factor")), displayName: try row.optionalString("display_name"),
                phoneNumber: try row.optionalString("phone_number"), sealedTOTPSecret: try row.optionalString("totp_secret"),
                enrolledAt: try row.instant("enrolled_at"), lastTOTPStep: try row.optionalInt64("last_totp_step")
            )
            factors[enrollment.localID, default: []].append(enrollment)
        }
        var identities: [String: [FederatedIdentityRecord]] = [:]
        for row in try await db.query(
            .read(
                "SELECT \(IdentityRows.columns) FROM federated_identities WHERE tenant_id = ? AND local_id >= ? AND local_id <= ?", range,
                from: .federatedIdentities)
        ) {
            let identity = try identity(from: row)
            identities[identity.localID, default: []].append(identity)
        }
        var passkeys: [String: [PasskeyRecord]] = [:]
        for row in try await db.query(
            .read("SELECT \(Self.passkeyColumns) FROM passkeys WHERE tenant_id = ? AND local_id >= ? AND local_id <= ?", range, from: .passkeys)
        ) {
            let passkey = try passkey(from: row)
            passkeys[passkey.localID, default: []].append(passkey)
        }
        return users.map {
            UserAndFactors(
                user: $0, enrollments: factors[$0.localID] ?? [], identities: Self.ordered(identities[$0.localID] ?? []),
                passkeys: (passkeys[$0.localID] ?? []).sorted(by: Self.passkeyOrder))
        }
    }

    /// The owners of `keys` in `tenant`: one indexed lookup per provider and chunk of ``lookupWidth`` raw IDs.
    func identityOwners(tenant: TenantID, _ keys: [FederatedIdentityKey]) async throws -> [FederatedIdentityKey: String] {
        var owners: [FederatedIdentityKey: String] = [:]
        let width = lookupWidth
        for (provider, group) in Dictionary(grouping: Set(keys), by: \.providerID) {
            let rawIDs = group.map(\.rawID)
            for round in 0..<(rawIDs.count + width - 1) / width {
                let rows = try await db.query(
                    .read(
                        """
                        SELECT raw_id, local_id FROM federated_identities
                        WHERE tenant_id = ? AND provider_id = ? AND raw_id IN (\(Self.placeholders(width)))
                        """,
                        [.text(tenant.rawValue), .text(provider)] + Self.padded(rawIDs, chunk: round, width: width), from: .federatedIdentities)
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
            identities, into: .federatedIdentities, columns: IdentityRows.columns, width: IdentityRows.columnCount, key: "raw_id",
            conflict: .federatedIdentity, values: identityValues)
    }

    // MARK: Shapes

    /// `(?, …), (?, …), …`: `rows` rows of `columns` placeholders.
    static func rowPlaceholders(_ rows: Int, columns: Int) -> String {
        Array(repeating: "(\(placeholders(columns)))", count: rows).joined(separator: ", ")
    }

    /// The `chunk`-th slice of `width` values, padded with `NULL` to `width`.
    static func padded(_ values: [String], chunk: Int, width: Int) -> [SQLValue] {
        let start = min(values.count, chunk * width)
        let slice = values[start..<min(values.count, start + width)].map(SQLValue.text)
        return slice + Array(repeating: .null, count: width - slice.count)
    }

    /// Inserts `items` into `table`'s `columns` in multi-row statements of up to ``rowsPerInsert`` rows of `width`
    /// values each; a row a unique key refuses (`key` is not returned for it) throws ``StoreError/conflict(_:)`` with
    /// `conflict`, what the key holds.
    func insertRows<T>(
        _ items: [T], into table: SQLTable, columns: String, width: Int, key: String, conflict: StoreConflict, values: (T) -> [SQLValue]
    ) async throws {
        for rows in Self.insertChunks(items, size: rowsPerInsert) {
            let inserted = try await db.query(
                .write(
                    """
                    INSERT INTO \(table.rawValue) (\(columns)) VALUES \(Self.rowPlaceholders(rows.count, columns: width))
                    ON CONFLICT DO NOTHING RETURNING \(key)
                    """,
                    rows.flatMap(values), into: table)
            )

            if inserted.count != rows.count { throw StoreError.conflict(conflict) }
        }
    }

    /// `items` cut into runs of `size` (a power of two), the tail into smaller powers of two: few statement shapes.
    static func insertChunks<T>(_ items: [T], size rows: Int) -> [ArraySlice<T>] {
        var chunks: [ArraySlice<T>] = []
        var start = 0
        var size = rows
        while start < items.count {
            while size > items.count - start { size /= 2 }
            chunks.append(items[start..<start + size])
            start += size
        }
        return chunks
    }
}
