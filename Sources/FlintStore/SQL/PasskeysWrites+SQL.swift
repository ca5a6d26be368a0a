import FlintCore

/// Statements of passkeys, for every SQL-backed store. `transports` is stored as one comma-separated text (its values
/// never hold a comma).
extension PasskeysWrites where Self: SQLBacked {
    static var passkeyColumns: String { "tenant_id, credential_id, local_id, public_key, rp_id, sign_count, name, transports, created_at" }

    func passkey(from row: SQLRow) throws -> PasskeyRecord {
        PasskeyRecord(
            tenant: TenantID(rawValue: try row.string("tenant_id")), credentialID: try row.string("credential_id"),
            localID: try row.string("local_id"), publicKey: try row.string("public_key"),
            rpID: try row.string("rp_id"), signCount: try row.int64("sign_count"), name: try row.optionalString("name"),
            transports: try row.string("transports").split(separator: ",").map(String.init), createdAt: try row.instant("created_at"))
    }

    func passkeys(tenant: TenantID, localID: String) async throws -> [PasskeyRecord] {
        try await db.query(
            .read(
                "SELECT \(Self.passkeyColumns) FROM passkeys WHERE tenant_id = ? AND local_id = ? ORDER BY created_at, credential_id",
                [.text(tenant.rawValue), .text(localID)], from: .passkeys
            )
        ).map(passkey(from:))
    }

    func passkeys(tenant: TenantID, localIDs: [String]) async throws -> [String: [PasskeyRecord]] {
        let rows = try await forEachSlice(of: Array(Set(localIDs)), leading: [.text(tenant.rawValue)]) {
            .read("SELECT \(Self.passkeyColumns) FROM passkeys WHERE tenant_id = ? AND local_id IN (\($0))", $1, from: .passkeys)
        }
        return Dictionary(grouping: try rows.map(passkey(from:)).sorted(by: Self.passkeyOrder), by: \.localID)
    }

    /// An account's passkeys' order: oldest first, then by credential ID.
    static func passkeyOrder(_ a: PasskeyRecord, _ b: PasskeyRecord) -> Bool {
        (a.createdAt, a.credentialID) < (b.createdAt, b.credentialID)
    }

    func passkey(tenant: TenantID, credentialID: String) async throws -> PasskeyRecord? {
        try await db.first(
            .read(
                "SELECT \(Self.passkeyColumns) FROM passkeys WHERE tenant_id = ? AND credential_id = ?",
                [.text(tenant.rawValue), .text(credentialID)],
                from: .passkeys)
        ).map(passkey(from:))
    }

    func insertPasskey(_ p: PasskeyRecord) async throws {
        let rows = try await db.query(
            .write(
                """
                INSERT INTO passkeys (\(Self.passkeyColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING credential_id
                """,
                [
                    .text(p.tenant.rawValue), .text(p.credentialID), .text(p.localID), .text(p.publicKey), .text(p.rpID), .integer(p.signCount),
                    p.name.sql,
                    .text(p.transports.joined(separator: ",")), .instant(p.createdAt),
                ], into: .passkeys))
        if rows.isEmpty { throw StoreError.conflict(.passkey) }
    }

    func advancePasskeyCounter(tenant: TenantID, credentialID: String, from old: Int64, to new: Int64) async throws -> Bool {
        !(try await db.query(
            .write(
                "UPDATE passkeys SET sign_count = ? WHERE tenant_id = ? AND credential_id = ? AND sign_count = ? RETURNING credential_id",
                [.integer(new), .text(tenant.rawValue), .text(credentialID), .integer(old)], into: .passkeys)
        )).isEmpty
    }

    func deletePasskeys(tenant: TenantID, localID: String, credentialIDs: [String]) async throws -> [String] {
        var removed: [String] = []
        for id in Set(credentialIDs).sorted() {
            let rows = try await db.query(
                .write(
                    "DELETE FROM passkeys WHERE tenant_id = ? AND local_id = ? AND credential_id = ? RETURNING credential_id",
                    [.text(tenant.rawValue), .text(localID), .text(id)],
                    into: .passkeys))

            removed += try rows.map { try $0.string("credential_id") }
        }
        return removed
    }
}
