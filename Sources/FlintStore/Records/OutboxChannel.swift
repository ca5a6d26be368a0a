/// How an outbox message travels. Stored as its raw text in `outbox.channel`.
public struct OutboxChannel: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The stored text.
    public let rawValue: String

    /// A channel from its stored text.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A text message to an E.164 number.
    public static let sms = OutboxChannel(rawValue: "sms")
    /// An email to an address.
    public static let email = OutboxChannel(rawValue: "email")
    /// A silent APNs push to an app's device token (app verification).
    public static let apns = OutboxChannel(rawValue: "apns")

    public var description: String { rawValue }
}
