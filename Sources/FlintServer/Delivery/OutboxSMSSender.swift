import FlintCore
import FlintStore

/// The dev outbox: every message is stored durably in the store's outbox (surviving restarts) instead of being
/// sent, and shown at `/emulator/v1/projects/{p}/outbox` and `.../verificationCodes`.
public struct OutboxSMSSender: SMSSender {
    private let store: any AuthStore

    /// Creates an outbox writing to `store`.
    public init(store: any AuthStore) {
        self.store = store
    }

    public func send(_ message: SMSMessage) async throws {
        let record = OutboxMessage(
            channel: "sms", recipient: message.to, body: message.body, locale: message.locale, createdAt: message.createdAt,
            code: message.code, sessionID: message.sessionID
        )
        try await store.write { tx in try await tx.appendOutbox(record) }
    }
}
