import FlintCore

/// The node's shared state, for every SQL-backed store: the master secret and config metadata (`flint_secrets`), the
/// signing keys with their schedule, the project config document, and the schema version.
extension ConfigWrites where Self: SQLBacked {
    func masterSecret() async throws -> String? {
        try await db.first(.read("SELECT value FROM flint_secrets WHERE name = 'master'", from: .secrets))?.string("value")
    }

    func ensureMasterSecret(_ candidate: String) async throws -> String {
        if let existing = try await masterSecret() { return existing }
        try await db.run(
            .write("INSERT INTO flint_secrets (name, value) VALUES ('master', ?) ON CONFLICT (name) DO NOTHING", [.text(candidate)], into: .secrets))
        return try await masterSecret() ?? candidate
    }

    func replaceMasterSecret(_ stored: String) async throws {
        try await db.run(.write("UPDATE flint_secrets SET value = ? WHERE name = 'master'", [.text(stored)], into: .secrets))
    }

    func signingKeys() async throws -> [SigningKeyRecord] {
        try await db.query(
            .read(
                """
                SELECT kid, private_key_pem, certificate_pem, created_at, COALESCE(activates_at, created_at) AS activates_at, retired_at,
                    revoked_at FROM signing_keys ORDER BY created_at DESC
                """, from: .signingKeys)
        )
        .map { row in
            SigningKeyRecord(
                kid: try row.string("kid"), privateKeyPEM: try row.string("private_key_pem"),
                certificatePEM: try row.string("certificate_pem"), createdAt: try row.instant("created_at"),
                activatesAt: try row.instant("activates_at"), retiredAt: try row.optionalInstant("retired_at"),
                revokedAt: try row.optionalInstant("revoked_at")
            )
        }
    }

    func addSigningKey(_ key: SigningKeyRecord, retiringOthersAt retireAt: Instant?) async throws {
        if let retireAt {
            try await db.run(
                .write(
                    "UPDATE signing_keys SET retired_at = ? WHERE retired_at IS NULL OR retired_at > ?", [.instant(retireAt), .instant(retireAt)],
                    into: .signingKeys))
        }
        try await db.run(
            .write(
                """
                INSERT INTO signing_keys (kid, private_key_pem, certificate_pem, created_at, activates_at, retired_at, revoked_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    .text(key.kid), .text(key.privateKeyPEM), .text(key.certificatePEM), .instant(key.createdAt), .instant(key.activatesAt),
                    key.retiredAt.sql, key.revokedAt.sql,
                ], into: .signingKeys)
        )
    }

    func revokeSigningKey(kid: String, at now: Instant) async throws -> Bool {
        !(try await db.query(
            .write(
                "UPDATE signing_keys SET revoked_at = ?, retired_at = COALESCE(retired_at, ?) WHERE kid = ? AND revoked_at IS NULL RETURNING kid",
                [.instant(now), .instant(now), .text(kid)], into: .signingKeys)
        ).isEmpty)
    }

    func unretireSigningKeys(retiredAt instant: Instant) async throws {
        try await db.run(
            .write("UPDATE signing_keys SET retired_at = NULL WHERE retired_at = ? AND revoked_at IS NULL", [.instant(instant)], into: .signingKeys))
    }

    func replaceSigningPrivateKey(kid: String, with stored: String) async throws {
        try await db.run(.write("UPDATE signing_keys SET private_key_pem = ? WHERE kid = ?", [.text(stored), .text(kid)], into: .signingKeys))
    }

    func projectConfig() async throws -> String? {
        try await db.first(.read("SELECT document FROM project_config WHERE id = 1", from: .projectConfig))?.string("document")
    }

    func saveProjectConfig(_ json: String) async throws {
        try await db.run(
            .write(
                "INSERT INTO project_config (id, document) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET document = excluded.document", [.text(json)],
                into: .projectConfig))
    }

    // The config metadata shares the name/value table with the master secret, under its own names.

    func configMetadata(_ name: String) async throws -> String? {
        try await db.first(.read("SELECT value FROM flint_secrets WHERE name = ?", [.text("config:" + name)], from: .secrets))?.string("value")
    }

    func saveConfigMetadata(_ name: String, value: String) async throws {
        try await db.run(
            .write(
                "INSERT INTO flint_secrets (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value",
                [.text("config:" + name), .text(value)], into: .secrets))
    }

    func schemaVersion() async throws -> Int {
        Int(try await db.first(.read("SELECT COALESCE(MAX(version), 0) AS v FROM flint_schema", from: .schema))?.int64("v") ?? 0)
    }
}
