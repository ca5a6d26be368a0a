import FlintCore

/// Statements of event webhooks, for every SQL-backed store: subscriptions with their cursors over the audit log (hence
/// the audit log's statements), and deliveries claimed with a lease as the outbox's records are, so two nodes never
/// send one at the same time.
extension WebhooksWrites where Self: SQLBacked {
    private static var subscriptionColumns: String { "id, url, events, secret, enabled, description, created_at, audit_cursor" }

    private static var deliveryColumns: String {
        """
        seq, subscription_id, audit_id, event_type, webhook_id, payload, status, attempts, next_attempt_at, last_error, last_status,
            created_at, last_attempt_at
        """
    }

    private func subscription(from row: SQLRow) throws -> WebhookSubscription {
        WebhookSubscription(
            id: try row.string("id"), url: try row.string("url"),
            events: try row.string("events").split(separator: " ").map { WebhookEventType(rawValue: String($0)) },
            secret: try row.string("secret"), enabled: try row.bool("enabled"), description: try row.optionalString("description"),
            createdAt: try row.instant("created_at"), cursor: try row.int64("audit_cursor"))
    }

    private func delivery(from row: SQLRow) throws -> WebhookDelivery {
        WebhookDelivery(
            sequence: try row.int64("seq"), subscriptionID: try row.string("subscription_id"), auditID: try row.int64("audit_id"),
            eventType: WebhookEventType(rawValue: try row.string("event_type")), webhookID: try row.string("webhook_id"),
            payload: try row.string("payload"), status: WebhookDeliveryStatus(rawValue: try row.string("status")),
            attempts: Int(try row.int64("attempts")), nextAttemptAt: try row.instant("next_attempt_at"),
            lastError: try row.optionalString("last_error"), lastStatus: try row.optionalInt64("last_status").map { Int($0) },
            createdAt: try row.instant("created_at"), lastAttemptAt: try row.optionalInstant("last_attempt_at"))
    }

    func webhookSubscriptions() async throws -> [WebhookSubscription] {
        try await db.query(
            .read("SELECT \(Self.subscriptionColumns) FROM webhook_subscriptions ORDER BY created_at, id", from: .webhookSubscriptions)
        )
        .map(subscription(from:))
    }

    func webhookSubscription(id: String) async throws -> WebhookSubscription? {
        try await db.first(
            .read("SELECT \(Self.subscriptionColumns) FROM webhook_subscriptions WHERE id = ?", [.text(id)], from: .webhookSubscriptions)
        ).map(subscription(from:))
    }

    func webhookDeliveries(subscriptionID: String?, before: Int64?, limit: Int) async throws -> [WebhookDelivery] {
        var filter = SQLFilter()
        filter.add("subscription_id = ?", subscriptionID.map(SQLValue.text))
        filter.add("seq < ?", before.map(SQLValue.integer))
        filter.binds.append(.integer(Int64(max(0, limit))))
        return try await db.query(
            .read(
                "SELECT \(Self.deliveryColumns) FROM webhook_deliveries \(filter.clause) ORDER BY seq DESC LIMIT ?", filter.binds,
                from: .webhookDeliveries)
        ).map(delivery(from:))
    }

    func webhookDelivery(sequence: Int64) async throws -> WebhookDelivery? {
        try await db.first(
            .read("SELECT \(Self.deliveryColumns) FROM webhook_deliveries WHERE seq = ?", [.integer(sequence)], from: .webhookDeliveries)
        ).map(delivery(from:))
    }

    /// The condition of a delivery (`row`: the table or its alias) that is due at the bound instant (bound twice) and
    /// whose subscription is enabled. A claim states it on the row it updates, so on PostgreSQL a second node's claim
    /// waiting for the first's row lock checks it again on the claimed row and finds it no longer due.
    private static func dueCondition(_ row: String) -> String {
        """
        ((\(row).status = 'pending' AND \(row).next_attempt_at <= ?) OR (\(row).status = 'sending' AND \(row).claimed_until < ?))
            AND EXISTS (SELECT 1 FROM webhook_subscriptions s WHERE s.id = \(row).subscription_id AND s.enabled)
        """
    }

    func dueWebhookDeliveries(now: Instant, limit: Int) async throws -> [Int64] {
        try await db.query(
            .read(
                "SELECT d.seq FROM webhook_deliveries d WHERE \(Self.dueCondition("d")) ORDER BY d.seq LIMIT ?",
                [.instant(now), .instant(now), .integer(Int64(limit))], from: .webhookDeliveries, .webhookSubscriptions)
        ).map { try $0.int64("seq") }
    }

    func nextWebhookDue() async throws -> Instant? {
        let row = try await db.first(
            .read(
                """
                SELECT MIN(CASE WHEN d.status = 'pending' THEN d.next_attempt_at ELSE d.claimed_until END) AS due
                FROM webhook_deliveries d
                WHERE d.status IN ('pending', 'sending')
                    AND EXISTS (SELECT 1 FROM webhook_subscriptions s WHERE s.id = d.subscription_id AND s.enabled)
                """, from: .webhookDeliveries, .webhookSubscriptions))
        return try row?.optionalInstant("due")
    }

    func latestAuditEventID() async throws -> Int64 {
        try await db.first(.read("SELECT MAX(id) AS id FROM audit_events", from: .auditEvents))?.optionalInt64("id") ?? 0
    }

    func auditEvents(after: Int64, kinds: [AuditKind], limit: Int) async throws -> [AuditEvent] {
        guard !kinds.isEmpty else { return [] }
        let list = Self.placeholders(kinds.count)
        return try await db.query(
            .read(
                "SELECT id, at, kind, uid, ip, actor, detail FROM audit_events WHERE id > ? AND kind IN (\(list)) ORDER BY id LIMIT ?",
                [.integer(after)] + kinds.map { .text($0.rawValue) } + [.integer(Int64(max(0, limit)))], from: .auditEvents)
        ).map(auditEvent(from:))
    }

    func insertWebhookSubscription(_ s: WebhookSubscription) async throws {
        try await db.run(
            .write(
                "INSERT INTO webhook_subscriptions (\(Self.subscriptionColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    .text(s.id), .text(s.url), .text(s.events.map(\.rawValue).joined(separator: " ")), .text(s.secret), .bool(s.enabled),
                    s.description.sql, .instant(s.createdAt), .integer(s.cursor),
                ], into: .webhookSubscriptions))
    }

    func setWebhookSubscription(id: String, enabled: Bool) async throws -> Bool {
        !(try await db.query(
            .write(
                "UPDATE webhook_subscriptions SET enabled = ? WHERE id = ? RETURNING id", [.bool(enabled), .text(id)],
                into: .webhookSubscriptions)
        )
        .isEmpty)
    }

    func replaceWebhookSecret(id: String, with stored: String) async throws {
        try await db.run(.write("UPDATE webhook_subscriptions SET secret = ? WHERE id = ?", [.text(stored), .text(id)], into: .webhookSubscriptions))
    }

    func deleteWebhookSubscription(id: String) async throws -> Bool {
        try await db.run(.write("DELETE FROM webhook_deliveries WHERE subscription_id = ?", [.text(id)], into: .webhookDeliveries))
        return
            !(try await db.query(
                .write("DELETE FROM webhook_subscriptions WHERE id = ? RETURNING id", [.text(id)], into: .webhookSubscriptions)
            ).isEmpty)
    }

    func advanceWebhookCursor(id: String, to auditID: Int64) async throws {
        try await db.run(
            .write(
                "UPDATE webhook_subscriptions SET audit_cursor = ? WHERE id = ? AND audit_cursor < ?",
                [.integer(auditID), .text(id), .integer(auditID)],
                into: .webhookSubscriptions))
    }

    func enqueueWebhookDeliveries(_ deliveries: [WebhookDelivery]) async throws -> Int {
        var added = 0
        for d in deliveries {
            added +=
                try await db.query(
                    .write(
                        """
                        INSERT INTO webhook_deliveries (subscription_id, audit_id, event_type, webhook_id, payload, status, attempts,
                            next_attempt_at, created_at)
                        VALUES (?, ?, ?, ?, ?, 'pending', 0, ?, ?)
                        ON CONFLICT (subscription_id, audit_id, event_type) DO NOTHING RETURNING seq
                        """,
                        [
                            .text(d.subscriptionID), .integer(d.auditID), .text(d.eventType.rawValue), .text(d.webhookID), .text(d.payload),
                            .instant(d.nextAttemptAt), .instant(d.createdAt),
                        ], into: .webhookDeliveries)
                ).count
        }
        return added
    }

    func claimWebhookDelivery(sequence: Int64, now: Instant, leaseUntil: Instant) async throws -> WebhookDelivery? {
        try await db.first(
            .write(
                """
                UPDATE webhook_deliveries SET status = 'sending', claimed_until = ?, attempts = attempts + 1
                WHERE seq = ? AND \(Self.dueCondition("webhook_deliveries"))
                RETURNING \(Self.deliveryColumns)
                """,
                [.instant(leaseUntil), .integer(sequence), .instant(now), .instant(now)], into: .webhookDeliveries,
                reading: .webhookSubscriptions)
        ).map(delivery(from:))
    }

    func finishWebhookDelivery(
        sequence: Int64, status: WebhookDeliveryStatus, nextAttemptAt: Instant, error: String?, responseStatus: Int?, at: Instant
    ) async throws {
        try await db.run(
            .write(
                """
                UPDATE webhook_deliveries SET status = ?, next_attempt_at = ?, last_error = ?, last_status = ?, last_attempt_at = ?,
                    claimed_until = NULL
                WHERE seq = ?
                """,
                [
                    .text(status.rawValue), .instant(nextAttemptAt), error.sql, responseStatus.map { Int64($0) }.sql, .instant(at),
                    .integer(sequence),
                ], into: .webhookDeliveries))
    }

    func replayWebhookDelivery(sequence: Int64, now: Instant) async throws -> Bool {
        !(try await db.query(
            .write(
                """
                UPDATE webhook_deliveries SET status = 'pending', attempts = 0, next_attempt_at = ?, claimed_until = NULL
                WHERE seq = ? RETURNING seq
                """, [.instant(now), .integer(sequence)], into: .webhookDeliveries)
        ).isEmpty)
    }

    func deleteWebhookDeliveries(finishedBefore cutoff: Instant) async throws -> Int {
        try await db.query(
            .write(
                "DELETE FROM webhook_deliveries WHERE status IN ('delivered', 'failed') AND last_attempt_at < ? RETURNING seq", [.instant(cutoff)],
                into: .webhookDeliveries)
        ).count
    }
}
