import FlintCore

/// The SAML providers' service-provider keys (`saml_sp_keys`), for every SQL-backed store: rows of the project's
/// providers (tenant `''`) and of each tenant's, keyed by tenant, provider and creation instant.
extension ConfigWrites where Self: SQLBacked {
    private static var samlSPKeyColumns: String {
        "SELECT tenant_id, provider_id, private_key_pem, certificate_pem, created_at, activated_at, retire_at FROM saml_sp_keys"
    }

    func samlSPKeys(tenant: TenantID?, providerID: String?) async throws -> [SAMLSPKeyRecord] {
        let order = " ORDER BY tenant_id, provider_id, created_at DESC"
        let statement: SQLStatement =
            switch (tenant, providerID) {
            case (let tenant?, let providerID?):
                .read(
                    Self.samlSPKeyColumns + " WHERE tenant_id = ? AND provider_id = ?" + order, [.text(tenant.rawValue), .text(providerID)],
                    from: .samlSPKeys)
            case (let tenant?, nil): .read(Self.samlSPKeyColumns + " WHERE tenant_id = ?" + order, [.text(tenant.rawValue)], from: .samlSPKeys)
            case (nil, _): .read(Self.samlSPKeyColumns + order, from: .samlSPKeys)
            }
        return try await db.query(statement).map(Self.samlSPKey)
    }

    func insertSAMLSPKey(_ record: SAMLSPKeyRecord) async throws -> Bool {
        !(try await db.query(
            .write(
                """
                INSERT INTO saml_sp_keys (tenant_id, provider_id, created_at, private_key_pem, certificate_pem, activated_at, retire_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (tenant_id, provider_id, created_at) DO NOTHING RETURNING provider_id
                """,
                [
                    .text(record.tenant.rawValue), .text(record.providerID), .instant(record.createdAt), .text(record.privateKeyPEM),
                    .text(record.certificatePEM), record.activatedAt.sql, record.retireAt.sql,
                ], into: .samlSPKeys)
        ).isEmpty)
    }

    func replaceSAMLSPKey(_ record: SAMLSPKeyRecord) async throws -> Bool {
        !(try await db.query(
            .write(
                """
                UPDATE saml_sp_keys SET private_key_pem = ?, certificate_pem = ?, activated_at = ?, retire_at = ?
                    WHERE tenant_id = ? AND provider_id = ? AND created_at = ? RETURNING provider_id
                """,
                [
                    .text(record.privateKeyPEM), .text(record.certificatePEM), record.activatedAt.sql, record.retireAt.sql,
                    .text(record.tenant.rawValue), .text(record.providerID), .instant(record.createdAt),
                ], into: .samlSPKeys)
        ).isEmpty)
    }

    func deleteSAMLSPKey(_ record: SAMLSPKeyRecord) async throws {
        try await db.run(
            .write(
                "DELETE FROM saml_sp_keys WHERE tenant_id = ? AND provider_id = ? AND created_at = ?",
                [.text(record.tenant.rawValue), .text(record.providerID), .instant(record.createdAt)], into: .samlSPKeys))
    }

    private static func samlSPKey(_ row: SQLRow) throws -> SAMLSPKeyRecord {
        SAMLSPKeyRecord(
            tenant: TenantID(rawValue: try row.string("tenant_id")), providerID: try row.string("provider_id"),
            privateKeyPEM: try row.string("private_key_pem"), certificatePEM: try row.string("certificate_pem"),
            createdAt: try row.instant("created_at"), activatedAt: try row.optionalInstant("activated_at"),
            retireAt: try row.optionalInstant("retire_at"))
    }
}
