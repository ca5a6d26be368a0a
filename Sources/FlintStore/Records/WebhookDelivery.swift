public import FlintCore

/// Where a webhook delivery stands. Stored as its raw text; open-ended like ``OutboxStatus``.
public struct WebhookDeliveryStatus: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    /// Waiting for its next attempt (`nextAttemptAt`).
    public static let pending = WebhookDeliveryStatus(rawValue: "pending")
    /// Claimed by a node until its lease ends.
    public static let sending = WebhookDeliveryStatus(rawValue: "sending")
    /// The receiver answered 2xx.
    public static let delivered = WebhookDeliveryStatus(rawValue: "delivered")
    /// Every attempt failed.
    public static let failed = WebhookDeliveryStatus(rawValue: "failed")

    public var description: String { rawValue }
}

/// One event for one subscription: durable from the moment the event is seen until it is delivered or given up.
public struct WebhookDelivery: Sendable, Equatable {
    /// The store's sequence number; `nil` before it is stored.
    public var sequence: Int64?
    public var subscriptionID: String
    /// The audit event it reports.
    public var auditID: Int64
    public var eventType: WebhookEventType
    /// The `webhook-id` every attempt carries, from the subscription, the audit event and the type.
    public var webhookID: String
    /// The JSON body every attempt sends.
    public var payload: String
    public var status: WebhookDeliveryStatus
    /// Attempts made (claims).
    public var attempts: Int
    /// When the next attempt is due (pending).
    public var nextAttemptAt: Instant
    /// The last failed attempt's reason (`HTTP 500`, a connection error's type).
    public var lastError: String?
    /// The last answer's HTTP status, when there was one.
    public var lastStatus: Int?
    public var createdAt: Instant
    /// When the last attempt ended.
    public var lastAttemptAt: Instant?

    /// A delivery.
    public init(
        sequence: Int64? = nil, subscriptionID: String, auditID: Int64, eventType: WebhookEventType, webhookID: String, payload: String,
        status: WebhookDeliveryStatus = .pending, attempts: Int = 0, nextAttemptAt: Instant, lastError: String? = nil, lastStatus: Int? = nil,
        createdAt: Instant, lastAttemptAt: Instant? = nil
    ) {
        (self.sequence, self.subscriptionID, self.auditID, self.eventType, self.webhookID) = (sequence, subscriptionID, auditID, eventType, webhookID)
        (self.payload, self.status, self.attempts, self.nextAttemptAt) = (payload, status, attempts, nextAttemptAt)
        (self.lastError, self.lastStatus, self.createdAt, self.lastAttemptAt) = (lastError, lastStatus, createdAt, lastAttemptAt)
    }
}
