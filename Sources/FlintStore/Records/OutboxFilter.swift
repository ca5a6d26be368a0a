/// Which outbox records a listing shows (the console's deliveries page): any of a field left `nil`.
public struct OutboxFilter: Sendable, Equatable {
    /// Only this channel.
    public var channel: OutboxChannel?
    /// Only this status.
    public var status: OutboxStatus?
    /// Only this recipient (an E.164 number, a lower-case email), exactly.
    public var recipient: String?

    /// Creates a filter; without arguments, every record.
    public init(channel: OutboxChannel? = nil, status: OutboxStatus? = nil, recipient: String? = nil) {
        (self.channel, self.status, self.recipient) = (channel, status, recipient)
    }
}
