/// How many outbox records of one channel are in one undelivered status (`queued` or `sending`).
public struct OutboxBacklog: Sendable, Equatable {
    /// The records' channel.
    public var channel: OutboxChannel
    /// Their status.
    public var status: OutboxStatus
    /// How many there are.
    public var count: Int

    /// Creates a count.
    public init(channel: OutboxChannel, status: OutboxStatus, count: Int) {
        (self.channel, self.status, self.count) = (channel, status, count)
    }
}
