public import FlintCore

/// Event webhooks: the operators' subscriptions, and their deliveries with leases (as the outbox's). Queries.
public protocol WebhooksReads: Sendable {
    /// Every subscription, oldest first.
    func webhookSubscriptions() async throws -> [WebhookSubscription]
    /// The subscription `id`, if any.
    func webhookSubscription(id: String) async throws -> WebhookSubscription?
    /// The deliveries, newest first (of subscription `subscriptionID` when given, before the sequence `before` when
    /// given): keyset pages of at most `limit`.
    func webhookDeliveries(subscriptionID: String?, before: Int64?, limit: Int) async throws -> [WebhookDelivery]
    /// The delivery with sequence number `sequence`, if any.
    func webhookDelivery(sequence: Int64) async throws -> WebhookDelivery?
    /// Deliveries of enabled subscriptions due at `now`: pending and due, or claimed by a node whose lease ran out.
    func dueWebhookDeliveries(now: Instant, limit: Int) async throws -> [Int64]
    /// When the earliest delivery of an enabled subscription becomes due (a pending one's next attempt, a claimed one's
    /// lease end); `nil` when none waits.
    func nextWebhookDue() async throws -> Instant?
    /// The audit log's newest sequence number (`0` when it is empty): where a new subscription starts.
    func latestAuditEventID() async throws -> Int64
    /// The audit events of `kinds` after sequence number `after`, oldest first, at most `limit`.
    func auditEvents(after: Int64, kinds: [AuditKind], limit: Int) async throws -> [AuditEvent]
}

/// Event webhooks. Writes, inside a transaction.
public protocol WebhooksWrites: WebhooksReads, AuditWrites {
    /// Stores a new subscription.
    func insertWebhookSubscription(_ subscription: WebhookSubscription) async throws
    /// Turns a subscription's deliveries on or off; `false` when there is none with `id`.
    func setWebhookSubscription(id: String, enabled: Bool) async throws -> Bool
    /// Replaces a subscription's stored secret (sealed again under another master key).
    func replaceWebhookSecret(id: String, with stored: String) async throws
    /// Deletes a subscription and its deliveries; `false` when there is none with `id`.
    func deleteWebhookSubscription(id: String) async throws -> Bool
    /// Moves a subscription's cursor forward to `auditID` (never back).
    func advanceWebhookCursor(id: String, to auditID: Int64) async throws
    /// Stores the deliveries that are not stored yet (one per subscription, audit event and type); returns how many
    /// were new.
    func enqueueWebhookDeliveries(_ deliveries: [WebhookDelivery]) async throws -> Int
    /// Claims a due delivery of an enabled subscription until `leaseUntil` and counts the attempt; `nil` when another
    /// node holds it, it is not due, done, or its subscription is disabled.
    func claimWebhookDelivery(sequence: Int64, now: Instant, leaseUntil: Instant) async throws -> WebhookDelivery?
    /// Records an attempt's outcome: `delivered`, `failed`, or `pending` again until `nextAttemptAt`.
    func finishWebhookDelivery(
        sequence: Int64, status: WebhookDeliveryStatus, nextAttemptAt: Instant, error: String?, responseStatus: Int?, at: Instant
    ) async throws
    /// Queues a delivery again at `now` with a fresh round of attempts (its `webhook-id` and body unchanged); `false`
    /// when there is none with `sequence`.
    func replayWebhookDelivery(sequence: Int64, now: Instant) async throws -> Bool
    /// Deletes delivered and failed deliveries last tried before `cutoff`; returns how many.
    func deleteWebhookDeliveries(finishedBefore cutoff: Instant) async throws -> Int
}
