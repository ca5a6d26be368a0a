import SQLKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The store's statements over any SQLKit database, written once for SQLite and PostgreSQL.
struct SQLQueries: StoreTransaction {
    let db: any SQLDatabase

    // MARK: Secrets, keys, config

    func masterSecret() async throws -> [UInt8]? {
        guard let row = try await db.raw("SELECT value FROM flint_secrets WHERE name = 'master'").first() else { return nil }
        let text = try row.decode(column: "value", as: String.self)
        return Data(base64Encoded: text).map { [UInt8]($0) }
    }

    func ensureMasterSecret(_ candidate: [UInt8]) async throws -> [UInt8] {
        if let existing = try await masterSecret() { return existing }
        let text = Data(candidate).base64EncodedString()
        try await db.raw("INSERT INTO flint_secrets (name, value) VALUES ('master', \(bind: text)) ON CONFLICT (name) DO NOTHING").run()
        return try await masterSecret() ?? candidate
    }

    func signingKeys() async throws -> [SigningKeyRecord] {
        try await db.raw("SELECT kid, private_key_pem, certificate_pem, created_at, retired_at FROM signing_keys ORDER BY created_at DESC").all().map
        { row in
            SigningKeyRecord(
                kid: try row.decode(column: "kid", as: String.self),
                privateKeyPEM: try row.decode(column: "private_key_pem", as: String.self),
                certificatePEM: try row.decode(column: "certificate_pem", as: String.self),
                createdAt: try row.decode(column: "created_at", as: Int64.self),
                retiredAt: try row.decode(column: "retired_at", as: Int64?.self)
            )
        }
    }

    func addSigningKey(_ key: SigningKeyRecord, retiringOthersAt retireAt: Int64?) async throws {
        if let retireAt {
            try await db.raw("UPDATE signing_keys SET retired_at = \(bind: retireAt) WHERE retired_at IS NULL").run()
        }
        try await db.raw(
            """
            INSERT INTO signing_keys (kid, private_key_pem, certificate_pem, created_at, retired_at)
            VALUES (\(bind: key.kid), \(bind: key.privateKeyPEM), \(bind: key.certificatePEM), \(bind: key.createdAt), \(bind: key.retiredAt))
            """
        ).run()
    }

    func projectConfig() async throws -> String? {
        try await db.raw("SELECT document FROM project_config WHERE id = 1").first()?.decode(column: "document", as: String.self)
    }

    func saveProjectConfig(_ json: String) async throws {
        try await db.raw(
            "INSERT INTO project_config (id, document) VALUES (1, \(bind: json)) ON CONFLICT (id) DO UPDATE SET document = \(bind: json)"
        ).run()
    }

    // MARK: Code sessions

    private static let sessionColumns = "id, phone_number, purpose, code_hash, created_at, expires_at, attempts, consumed_at"

    private func session(from row: any SQLRow) throws -> CodeSession {
        CodeSession(
            id: try row.decode(column: "id", as: String.self),
            phoneNumber: try row.decode(column: "phone_number", as: String.self),
            purpose: try row.decode(column: "purpose", as: String.self),
            codeHash: try row.decode(column: "code_hash", as: String.self),
            createdAt: try row.decode(column: "created_at", as: Int64.self),
            expiresAt: try row.decode(column: "expires_at", as: Int64.self),
            attempts: try row.decode(column: "attempts", as: Int.self),
            consumedAt: try row.decode(column: "consumed_at", as: Int64?.self)
        )
    }

    func codeSession(id: String) async throws -> CodeSession? {
        try await db.raw("SELECT \(unsafeRaw: Self.sessionColumns) FROM code_sessions WHERE id = \(bind: id)").first().map(session(from:))
    }

    func startCodeSession(_ candidate: CodeSession, maxAttempts: Int) async throws -> (session: CodeSession, reused: Bool) {
        let liveKey = "\(candidate.purpose):\(candidate.phoneNumber)"
        if let row = try await db.raw("SELECT \(unsafeRaw: Self.sessionColumns) FROM code_sessions WHERE live_key = \(bind: liveKey)").first() {
            let existing = try session(from: row)
            if existing.isLive(now: candidate.createdAt, maxAttempts: maxAttempts) { return (existing, true) }
            try await db.raw("UPDATE code_sessions SET live_key = NULL WHERE id = \(bind: existing.id)").run()
        }
        try await db.raw(
            """
            INSERT INTO code_sessions (id, live_key, phone_number, purpose, code_hash, created_at, expires_at, attempts)
            VALUES (\(bind: candidate.id), \(bind: liveKey), \(bind: candidate.phoneNumber), \(bind: candidate.purpose),
                    \(bind: candidate.codeHash), \(bind: candidate.createdAt), \(bind: candidate.expiresAt), 0)
            """
        ).run()
        return (candidate, false)
    }

    func spendCode(sessionID: String, codeHash: String, now: Int64, maxAttempts: Int) async throws -> CodeSpendOutcome {
        let spent = try await db.raw(
            """
            UPDATE code_sessions SET consumed_at = \(bind: now), live_key = NULL
            WHERE id = \(bind: sessionID) AND consumed_at IS NULL AND expires_at > \(bind: now)
              AND attempts < \(bind: maxAttempts) AND code_hash = \(bind: codeHash)
            RETURNING \(unsafeRaw: Self.sessionColumns)
            """
        ).first()
        if let spent { return .spent(try session(from: spent)) }
        guard let current = try await codeSession(id: sessionID), current.consumedAt == nil else { return .notFound }
        if now >= current.expiresAt { return .expired }
        if current.attempts >= maxAttempts { return .locked }
        let counted = try await db.raw(
            "UPDATE code_sessions SET attempts = attempts + 1 WHERE id = \(bind: sessionID) AND consumed_at IS NULL RETURNING attempts"
        ).first()
        guard let attempts = try counted?.decode(column: "attempts", as: Int.self) else { return .notFound }
        return .wrongCode(attemptsLeft: max(0, maxAttempts - attempts))
    }

    func deleteCodeSessions(expiredBefore cutoff: Int64) async throws -> Int {
        try await db.raw("DELETE FROM code_sessions WHERE expires_at < \(bind: cutoff) RETURNING id").all().count
    }

    func abandonCodeSession(id: String, now: Int64) async throws {
        try await db.raw("UPDATE code_sessions SET consumed_at = \(bind: now), live_key = NULL WHERE id = \(bind: id)").run()
    }

    func pendingCodeMessages(now: Int64, maxAttempts: Int, phoneNumber: String?) async throws -> [OutboxMessage] {
        let onlyTo: SQLQueryString = phoneNumber.map { "AND s.phone_number = \(bind: $0)" } ?? ""
        return try await db.raw(
            """
            SELECT o.seq, o.channel, o.recipient, o.body, o.locale, o.created_at, o.code, o.session_id
            FROM code_sessions s JOIN outbox o ON o.session_id = s.id
            WHERE s.consumed_at IS NULL AND s.expires_at > \(bind: now) AND s.attempts < \(bind: maxAttempts) \(onlyTo)
            ORDER BY o.seq
            """
        ).all().map(outboxMessage(from:))
    }
}
