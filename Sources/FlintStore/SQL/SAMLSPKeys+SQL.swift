import FlintCore

/// The SAML providers' service-provider keys (`saml_sp_keys`), for every SQL-backed store: one row per provider of the
/// project (tenant `''`) or of a tenant, made once (the first insert wins) and replaced only by a rewrap or a rotation.
extension ConfigWrites where Self: SQLBacked {
    func samlSPKey(tenant: TenantID, providerID: String) async throws -> SAMLSPKeyRecord? {
        try await db.first(
            .read(
                "SELECT tenant_id, provider_id, private_key_pem, certificate_pem, created_at FROM saml_sp_keys WHERE tenant_id = ? AND provider_id = ?",
                [.text(tenant.rawValue), .text(providerID)], from: .samlSPKeys)
        ).map(Self.samlSPKey)
    }

    func samlSPKeys(tenant: TenantID?) async throws -> [SAMLSPKeyRecord] {
        let columns = "SELECT tenant_id, provider_id, private_key_pem, certificate_pem, created_at FROM saml_sp_keys"
        let statement: SQLStatement =
            if let tenant {
                .read(columns + " WHERE tenant_id = ? ORDER BY provider_id", [.text(tenant.rawValue)], from: .samlSPKeys)
            } else {
                .read(columns + " ORDER BY tenant_id, provider_id", from: .samlSPKeys)
            }
        return try await db.query(statement).map(Self.samlSPKey)
    }

    func ensureSAMLSPKey(_ candidate: SAMLSPKeyRecord) async throws -> SAMLSPKeyRecord {
        try await db.run(
            .write(
                """
                INSERT INTO saml_sp_keys (tenant_id, provider_id, private_key_pem, certificate_pem, created_at) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT (tenant_id, provider_id) DO NOTHING
                """,
                [
                    .text(candidate.tenant.rawValue), .text(candidate.providerID), .text(candidate.privateKeyPEM), .text(candidate.certificatePEM),
                    .instant(candidate.createdAt),
                ], into: .samlSPKeys))
        return try await samlSPKey(tenant: candidate.tenant, providerID: candidate.providerID) ?? candidate
    }

    func replaceSAMLSPKey(_ record: SAMLSPKeyRecord) async throws -> Bool {
        !(try await db.query(
            .write(
                """
                UPDATE saml_sp_keys SET private_key_pem = ?, certificate_pem = ?, created_at = ? WHERE tenant_id = ? AND provider_id = ?
                    RETURNING provider_id
                """,
                [
                    .text(record.privateKeyPEM), .text(record.certificatePEM), .instant(record.createdAt), .text(record.tenant.rawValue),
                    .text(record.providerID),
                ], into: .samlSPKeys)
        ).isEmpty)
    }

    private static func samlSPKey(_ row: SQLRow) throws -> SAMLSPKeyRecord {
        SAMLSPKeyRecord(
            tenant: TenantID(rawValue: try row.string("tenant_id")), providerID: try row.string("provider_id"),
            privateKeyPEM: try row.string("private_key_pem"), certificatePEM: try row.string("certificate_pem"),
            createdAt: try row.instant("created_at"))
    }
}
