/// The outcome of a delivery: the server has taken the message.
public struct SMTPReceipt: Sendable, Equatable {
    /// How many attempts it took (1 when the first one succeeded).
    public var attempts: Int
    /// The server's reply to the end of DATA, such as `250 2.0.0 Ok: queued as 4F2A1`.
    public var serverReply: String
    /// The message's `Message-ID`, without angle brackets.
    public var messageID: String
}
