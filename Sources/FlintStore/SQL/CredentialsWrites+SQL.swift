import FlintCore

/// Statements of credentials, for every SQL-backed store: service-account keys and named admin credentials.
extension CredentialsWrites where Self: SQLBacked {
    private static var serviceAccountColumns: String { "key_id, name, client_email, client_id, public_key_pem, created_at, revoked_at" }
    private static var adminCredentialColumns: String { "secret_hash, name, scope, created_at, revoked_at, tenants" }

    private func serviceAccount(from row: SQLRow) throws -> ServiceAccountRecord {
        ServiceAccountRecord(
            keyID: try row.string("key_id"), name: try row.string("name"), clientEmail: try row.string("client_email"),
            clientID: try row.string("client_id"), publicKeyPEM: try row.string("public_key_pem"), createdAt: try row.instant("created_at"),
            revokedAt: try row.optionalInstant("revoked_at"))
    }

    private func adminCredential(from row: SQLRow) throws -> AdminCredentialRecord {
        AdminCredentialRecord(
            secretHash: try row.string("secret_hash"), name: try row.string("name"), scope: AdminScope(rawValue: try row.string("scope")),
            createdAt: try row.instant("created_at"), revokedAt: try row.optionalInstant("revoked_at"),
            tenants: try TenantLimitColumn.tenants(try row.optionalString("tenants")))
    }

    func serviceAccounts() async throws -> [ServiceAccountRecord] {
        try await db.query(.read("SELECT \(Self.serviceAccountColumns) FROM service_accounts ORDER BY created_at, key_id", from: .serviceAccounts))
            .map(serviceAccount(from:))
    }

    func serviceAccounts(clientEmail: String) async throws -> [ServiceAccountRecord] {
        try await db.query(
            .read(
                "SELECT \(Self.serviceAccountColumns) FROM service_accounts WHERE client_email = ? ORDER BY created_at, key_id", [.text(clientEmail)],
                from: .serviceAccounts)
        ).map(serviceAccount(from:))
    }

    func insertServiceAccount(_ a: ServiceAccountRecord) async throws {
        let rows = try await db.query(
            .write(
                """
                INSERT INTO service_accounts (key_id, name, client_email, client_id, public_key_pem, created_at, revoked_at)
                VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING key_id
                """,
                [
                    .text(a.keyID), .text(a.name), .text(a.clientEmail), .text(a.clientID), .text(a.publicKeyPEM), .instant(a.createdAt),
                    a.revokedAt.sql,
                ],
                into: .serviceAccounts)
        )
        guard rows.isEmpty else { return }
        let taken = try await db.first(.read("SELECT key_id FROM service_accounts WHERE key_id = ?", [.text(a.keyID)], from: .serviceAccounts)) != nil
        throw StoreError.conflict(taken ? .keyID : .credentialName)
    }

    func revokeServiceAccount(name: String, at: Instant) async throws -> Bool {
        !(try await db.query(
            .write(
                "UPDATE service_accounts SET revoked_at = ? WHERE name = ? AND revoked_at IS NULL RETURNING key_id", [.instant(at), .text(name)],
                into: .serviceAccounts)
        )).isEmpty
    }

    func adminCredentials() async throws -> [AdminCredentialRecord] {
        try await db.query(.read("SELECT \(Self.adminCredentialColumns) FROM admin_credentials ORDER BY created_at, name", from: .adminCredentials))
            .map(adminCredential(from:))
    }

    func adminCredential(secretHash: String) async throws -> AdminCredentialRecord? {
        try await db.first(
            .read("SELECT \(Self.adminCredentialColumns) FROM admin_credentials WHERE secret_hash = ?", [.text(secretHash)], from: .adminCredentials)
        )
        .map(adminCredential(from:))
    }

    func insertAdminCredential(_ c: AdminCredentialRecord) async throws {
        let rows = try await db.query(
            .write(
                """
                INSERT INTO admin_credentials (secret_hash, name, scope, created_at, revoked_at, tenants)
                VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING secret_hash
                """,
                [
                    .text(c.secretHash), .text(c.name), .text(c.scope.rawValue), .instant(c.createdAt), c.revokedAt.sql,
                    TenantLimitColumn.value(c.tenants),
                ], into: .adminCredentials)
        )
        if rows.isEmpty { throw StoreError.conflict(.credentialName) }
    }

    func revokeAdminCredential(name: String, at: Instant) async throws -> Bool {
        !(try await db.query(
            .write(
                "UPDATE admin_credentials SET revoked_at = ? WHERE name = ? AND revoked_at IS NULL RETURNING secret_hash",
                [.instant(at), .text(name)],
                into: .adminCredentials)
        )).isEmpty
    }

    func setAdminCredentialTenants(name: String, tenants: [TenantID]?) async throws -> AdminCredentialRecord? {
        try await db.first(
            .write(
                "UPDATE admin_credentials SET tenants = ? WHERE name = ? AND revoked_at IS NULL RETURNING \(Self.adminCredentialColumns)",
                [TenantLimitColumn.value(TenantID.limit(tenants)), .text(name)], into: .adminCredentials)
        )
        .map(adminCredential(from:))
    }
}
