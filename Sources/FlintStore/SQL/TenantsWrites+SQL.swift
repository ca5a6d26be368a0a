import FlintCore

/// Statements of the tenants table, for every SQL-backed store: every one goes by the primary key (`id`).
extension TenantsWrites where Self: SQLBacked {
    private func tenant(from row: SQLRow) throws -> TenantRecord {
        TenantRecord(id: try row.string("id"), document: try row.string("document"), createdAt: try row.instant("created_at"))
    }

    func tenant(id: String) async throws -> TenantRecord? {
        try await db.first(.read("SELECT id, document, created_at FROM tenants WHERE id = ?", [.text(id)], from: .tenants)).map(tenant(from:))
    }

    func tenants(after: String?, limit: Int) async throws -> [TenantRecord] {
        let rows =
            if let after {
                try await db.query(
                    .read(
                        "SELECT id, document, created_at FROM tenants WHERE id > ? ORDER BY id LIMIT ?", [.text(after), .integer(Int64(limit))],
                        from: .tenants))
            } else {
                try await db.query(
                    .read("SELECT id, document, created_at FROM tenants ORDER BY id LIMIT ?", [.integer(Int64(limit))], from: .tenants))
            }
        return try rows.map(tenant(from:))
    }

    func insertTenant(_ t: TenantRecord) async throws -> Bool {
        !(try await db.query(
            .write(
                "INSERT INTO tenants (id, document, created_at) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING RETURNING id",
                [.text(t.id), .text(t.document), .instant(t.createdAt)], into: .tenants)
        ).isEmpty)
    }

    func updateTenant(id: String, document: String) async throws -> Bool {
        !(try await db.query(
            .write("UPDATE tenants SET document = ? WHERE id = ? RETURNING id", [.text(document), .text(id)], into: .tenants)
        ).isEmpty)
    }

    func deleteTenant(id: String) async throws -> Int? {
        // The default tenant ('') is no tenant resource: its users are never deleted here.
        guard !id.isEmpty, !(try await db.query(.write("DELETE FROM tenants WHERE id = ? RETURNING id", [.text(id)], into: .tenants)).isEmpty)
        else { return nil }
        let tenant = SQLValue.text(id)
        // Its SAML providers' SP keys go with it.
        try await db.run(.write("DELETE FROM saml_sp_keys WHERE tenant_id = ?", [tenant], into: .samlSPKeys))
        // No account outlives its tenant: everything keyed by the tenant's users goes in the same transaction, each
        // table's rows a range of an index led by `tenant_id` (oob codes' and code sessions' only by the column).
        for table in UserRows.keyedByAccount + [.oobCodes, .codeSessions] {
            try await db.run(.write("DELETE FROM \(table.rawValue) WHERE tenant_id = ?", [tenant], into: table))
        }
        return try await db.query(.write("DELETE FROM users WHERE tenant_id = ? RETURNING local_id", [tenant], into: .users)).count
    }
}
