/// Production mode without an SMS provider: nothing can be delivered, so every send fails at once with a reason the
/// operator can act on, rather than codes piling up unseen in the dev outbox.
public struct UnconfiguredSMSSender: SMSSender {
    /// Creates the sender.
    public init() {}

    public func send(_ message: SMSMessage) async throws {
        throw SMSDeliveryError(.notConfigured, "no SMS provider: start flint serve with --sms (see docs/serving.md)")
    }
}
