import FlintCore

/// The dev outbox: nothing leaves the machine. The message's outbox record, committed with its code, survives
/// restarts and is shown at `/emulator/v1/projects/{p}/outbox` and `.../verificationCodes`.
public struct DevOutboxSender: SMSSender {
    /// Creates the dev outbox sender.
    public init() {}

    public func send(_ message: SMSMessage) async throws {}
}
