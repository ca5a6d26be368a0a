public import FlintCore

/// An operator's subscription of a URL to event webhooks.
public struct WebhookSubscription: Sendable, Equatable {
    /// Its ID (`wh_` and random characters).
    public var id: String
    /// Where deliveries are POSTed.
    public var url: String
    /// The event types it receives.
    public var events: [WebhookEventType]
    /// The signing secret's stored form (sealed with the master key when there is one).
    public var secret: String
    /// Whether deliveries are made; a disabled subscription's pending deliveries wait.
    public var enabled: Bool
    /// The operator's note.
    public var description: String?
    public var createdAt: Instant
    /// The last audit event it has turned into deliveries, up to the events that may still be committed before it.
    public var cursor: Int64

    /// A subscription.
    public init(
        id: String, url: String, events: [WebhookEventType], secret: String, enabled: Bool = true, description: String? = nil,
        createdAt: Instant, cursor: Int64
    ) {
        (self.id, self.url, self.events, self.secret, self.enabled, self.description) = (id, url, events, secret, enabled, description)
        (self.createdAt, self.cursor) = (createdAt, cursor)
    }
}
