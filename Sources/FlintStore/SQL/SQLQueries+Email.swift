import FlintCore

/// Statements of the email flows: oob codes and the delivery state of queued email.
extension SQLQueries {
    private static let oobColumns = "code_hash, request_type, email, local_id, created_at, expires_at, used_at, continue_url"

    private func oobCode(from row: SQLRow) throws -> OobCodeRecord {
        OobCodeRecord(
            codeHash: try row.string("code_hash"), requestType: OobCodeKind(rawValue: try row.string("request_type")), email: try row.string("email"),
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
                INSERT INTO oob_codes (code_hash, request_type, email, local_id, created_at, expires_at, used_at, continue_url)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    .text(c.codeHash), .text(c.requestType.rawValue), .text(c.email), c.localID.sql, .instant(c.createdAt), .instant(c.expiresAt),
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

    func pendingOobMessages(now: Instant) async throws -> [OutboxMessage] {
        try await db.query(
            .read(
                """
                SELECT \(Self.outboxColumns)
                FROM oob_codes c JOIN outbox o ON o.session_id = c.code_hash
                WHERE c.used_at IS NULL AND c.expires_at > ? AND o.channel = 'email'
                ORDER BY o.seq
                """,
                [.instant(now)], from: .oobCodes, .outbox)
        ).map(outboxMessage(from:))
    }

    func claimOutbox(sequence: Int64, now: Instant, leaseUntil: Instant) async throws -> OutboxMessage? {
        try await db.first(
            .write(
                """
                UPDATE outbox SET status = 'sending', claimed_until = ?, attempts = attempts + 1
                WHERE seq = ? AND (status = 'queued' OR (status = 'sending' AND claimed_until < ?))
                RETURNING seq, channel, recipient, body, locale, created_at, code, session_id, subject, html, link, request_type, status,
                    status_detail, attempts
                """,
                [.instant(leaseUntil), .integer(sequence), .instant(now)], into: .outbox)
        ).map(outboxMessage(from:))
    }

    func dueOutbox(now: Instant, limit: Int) async throws -> [Int64] {
        try await db.query(
            .read(
                "SELECT seq FROM outbox WHERE status = 'queued' OR (status = 'sending' AND claimed_until < ?) ORDER BY seq LIMIT ?",
                [.instant(now), .integer(Int64(limit))], from: .outbox)
        ).map { try $0.int64("seq") }
    }

    func finishOutbox(sequence: Int64, status: OutboxStatus, detail: String?, redact: Bool) async throws {
        try await db.run(
            .write(Self.finishOutbox(redact: redact) + "seq = ?", [.text(status.rawValue), detail.sql, .integer(sequence)], into: .outbox))
    }

    func finishCodeText(sessionID: String, status: OutboxStatus, detail: String?, redact: Bool) async throws {
        try await db.run(
            .write(Self.finishOutbox(redact: redact) + "session_id = ?", [.text(status.rawValue), detail.sql, .text(sessionID)], into: .outbox))
    }

    /// An outcome's `UPDATE`, up to the `WHERE` clause's condition.
    private static func finishOutbox(redact: Bool) -> String {
        redact
            ? "UPDATE outbox SET status = ?, status_detail = ?, claimed_until = NULL, body = '', html = NULL, link = NULL, code = NULL WHERE "
            : "UPDATE outbox SET status = ?, status_detail = ?, claimed_until = NULL WHERE "
    }

    func deleteOutbox(finishedBefore cutoff: Instant) async throws -> Int {
        try await db.query(
            .write(
                """
                DELETE FROM outbox
                WHERE created_at < ? AND (status IN ('sent', 'failed') OR (channel = 'sms' AND status = 'sending' AND claimed_until IS NULL))
                RETURNING seq
                """,
                [.instant(cutoff)], into: .outbox)
        ).count

    }
}
