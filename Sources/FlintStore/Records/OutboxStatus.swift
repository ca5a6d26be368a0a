/// Where an outbox message is in its delivery. Stored as its raw text in `outbox.status`.
public struct OutboxStatus: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The stored text.
    public let rawValue: String

    /// A status from its stored text.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Kept by the dev outbox: the record is the delivery.
    public static let dev = OutboxStatus(rawValue: "dev")
    /// Waiting for a delivery worker to claim it.
    public static let queued = OutboxStatus(rawValue: "queued")
    /// Claimed, or being handed over to the provider.
    public static let sending = OutboxStatus(rawValue: "sending")
    /// The provider accepted it.
    public static let sent = OutboxStatus(rawValue: "sent")
    /// Delivery gave up.
    public static let failed = OutboxStatus(rawValue: "failed")

    public var description: String { rawValue }
}
