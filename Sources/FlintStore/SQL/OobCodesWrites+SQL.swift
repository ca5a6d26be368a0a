import FlintCore

/// Statements of oob codes, for every SQL-backed store.
extension OobCodesWrites where Self: SQLBacked {
    private static var oobColumns: String { "tenant_id, code_hash, request_type, email, local_id, created_at, expires_at, used_at, continue_url" }

    private func oobCode(from row: SQLRow) throws -> OobCodeRecord {
        OobCodeRecord(
            tenant: TenantID(rawValue: try row.string("tenant_id")), codeHash: try row.string("code_hash"),
            requestType: OobCodeKind(rawValue: try row.string("request_type")), email: try row.string("email"),
            localID: try row.optionalString("local_id"), createdAt: try row.instant("created_at"), expiresAt: try row.instant("expires_at"),
            usedAt: try row.optionalInstant("used_at"), continueURL: try row.optionalString("continue_url")
        )
    }

    func oobCode(hash: String) async throws -> OobCodeRecord? {
        try await db.first(.read("SELECT \(Self.oobColumns) FROM oob_codes WHERE code_hash = ?", [.text(hash)], from: .oobCodes)).map(oobCode(from:))
    }

    func insertOobCode(_ c: OobCodeRecord) async throws {
        try await db.run(
            .write(
                """
                INSERT INTO oob_codes (\(Self.oobColumns))
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    .text(c.tenant.rawValue), .text(c.codeHash), .text(c.requestType.rawValue), .text(c.email), c.localID.sql, .instant(c.createdAt),
                    .instant(c.expiresAt),
                    c.usedAt.sql, c.continueURL.sql,
                ], into: .oobCodes)
        )
    }

    func useOobCode(hash: String, requestType: OobCodeKind, now: Instant) async throws -> OobCodeUse {
        if let row = try await db.first(
            .write(
                """
                UPDATE oob_codes SET used_at = ? WHERE code_hash = ? AND request_type = ? AND used_at IS NULL AND expires_at > ?
                RETURNING \(Self.oobColumns)
                """,
                [.instant(now), .text(hash), .text(requestType.rawValue), .instant(now)], into: .oobCodes)
        ) {
            return .used(try oobCode(from: row))
        }
        guard let current = try await oobCode(hash: hash), current.requestType == requestType, current.usedAt == nil else { return .invalid }
        return now >= current.expiresAt ? .expired : .invalid
    }

    func deleteOobCodes(expiredBefore cutoff: Instant) async throws -> Int {
        try await db.query(.write("DELETE FROM oob_codes WHERE expires_at < ? RETURNING code_hash", [.instant(cutoff)], into: .oobCodes)).count
    }
}
