import FlintCore

/// Statements of the outbox, for every SQL-backed store: queued texts and emails, their delivery state, the console's
/// pages newest first (keyset pages on the sequence) and the undelivered records counted for `/metrics` (through the
/// `outbox_status` index).
extension OutboxWrites where Self: SQLBacked {
    static var outboxColumns: String {
        """
        o.seq, o.channel, o.recipient, o.body, o.locale, o.created_at, o.code, o.session_id, o.subject, o.html, o.link, o.request_type,
        o.status, o.status_detail, o.attempts
        """
    }

    func outboxMessage(from row: SQLRow) throws -> OutboxMessage {
        var message = OutboxMessage(
            sequence: try row.int64("seq"), channel: OutboxChannel(rawValue: try row.string("channel")), recipient: try row.string("recipient"),
            body: try row.string("body"), locale: try row.string("locale"), createdAt: try row.instant("created_at"),
            code: try row.optionalString("code"), sessionID: try row.optionalString("session_id")
        )
        if let subject = try row.optionalString("subject") {
            message.email = OutboxMessage.EmailParts(
                subject: subject, html: try row.optionalString("html") ?? "", link: try row.optionalString("link") ?? "",
                requestType: OobCodeKind(rawValue: try row.optionalString("request_type") ?? "")
            )
        }
        message.status = OutboxStatus(rawValue: try row.string("status"))
        message.statusDetail = try row.optionalString("status_detail")
        message.attempts = Int(try row.int64("attempts"))
        return message
    }

    func appendOutbox(_ m: OutboxMessage) async throws -> Int64 {
        let row = try await db.first(.write(Self.outboxInsert + " RETURNING seq", Self.outboxValues(m), into: .outbox))
        return try row?.int64("seq") ?? 0
    }

    func appendCodeText(_ m: OutboxMessage) async throws {
        precondition(m.sessionID != nil, "a code's text names its session")
        try await db.deferred(.write(Self.outboxInsert, Self.outboxValues(m), into: .outbox))
    }

    private static var outboxInsert: String {
        """
        INSERT INTO outbox (channel, recipient, body, locale, created_at, code, session_id, subject, html, link, request_type, status,
            status_detail, attempts)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """
    }

    private static func outboxValues(_ m: OutboxMessage) -> [SQLValue] {
        [
            .text(m.channel.rawValue), .text(m.recipient), .text(m.body), .text(m.locale), .instant(m.createdAt), m.code.sql, m.sessionID.sql,
            (m.email?.subject).sql, (m.email?.html).sql, (m.email?.link).sql, (m.email?.requestType.rawValue).sql,
            .text(m.status.rawValue), m.statusDetail.sql, .integer(Int64(m.attempts)),
        ]
    }

    func outbox(limit: Int) async throws -> [OutboxMessage] {
        try await db.query(.read("SELECT \(Self.outboxColumns) FROM outbox o ORDER BY o.seq LIMIT ?", [.integer(Int64(limit))], from: .outbox))

            .map(outboxMessage(from:))
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

    func outbox(_ query: OutboxFilter, before: Int64?, limit: Int) async throws -> [OutboxMessage] {
        var filter = SQLFilter()
        filter.add("o.channel = ?", query.channel.map { .text($0.rawValue) })
        filter.add("o.status = ?", query.status.map { .text($0.rawValue) })
        filter.add("o.recipient = ?", query.recipient.map(SQLValue.text))
        filter.add("o.seq < ?", before.map(SQLValue.integer))
        filter.binds.append(.integer(Int64(limit)))
        return try await db.query(
            .read("SELECT \(Self.outboxColumns) FROM outbox o \(filter.clause) ORDER BY o.seq DESC LIMIT ?", filter.binds, from: .outbox)
        )

        .map(outboxMessage(from:))
    }

    func outboxBacklog() async throws -> [OutboxBacklog] {
        try await db.query(
            .read(
                "SELECT channel, status, COUNT(*) AS n FROM outbox WHERE status IN ('queued', 'sending') GROUP BY channel, status ORDER BY channel, status",
                from: .outbox)
        ).map { row in

            OutboxBacklog(
                channel: OutboxChannel(rawValue: try row.string("channel")), status: OutboxStatus(rawValue: try row.string("status")),
                count: Int(try row.int64("n")))
        }
    }
}
