public import FlintCore
public import FlintStore

/// One silent push to an app on a device: app verification's secret (`verifyClient`).
public struct PushMessage: Sendable, Equatable {
    /// The APNs device token, lower-case hex.
    public var deviceToken: String
    /// Whether the token belongs to APNs' sandbox (development builds).
    public var sandbox: Bool
    /// The JSON payload, e.g. `{"aps":{"content-available":1},"com.google.firebase.auth":{...}}`.
    public var payload: String
    /// When it was queued.
    public var createdAt: Instant

    /// The APNs environment name, `sandbox` or `production`.
    public var environment: String { sandbox ? "sandbox" : "production" }

    /// The dev outbox record: channel `apns`, the token as recipient, the payload as body, and the environment in
    /// the `locale` column (a push has no language).
    var outboxRecord: OutboxMessage {
        OutboxMessage(channel: .apns, recipient: deviceToken, body: payload, locale: environment, createdAt: createdAt)
    }
}

/// Delivers silent pushes. Implementations: ``DevOutboxPushSender`` (dev mode: the push is recorded in the outbox
/// and listed at `/emulator/v1/projects/{p}/pushes`) and ``APNsPushSender`` (Apple's HTTP/2 provider API).
public protocol PushSender: Sendable {
    /// Hands a push over.
    /// - Throws: when it was not accepted (for APNs: any answer but 200); `verifyClient` then answers
    ///   `INVALID_APP_CREDENTIAL`, which sends the client to the web challenge.
    func send(_ push: PushMessage) async throws
}

/// The dev outbox for pushes: nothing leaves the machine. The record survives restarts and is what a test (or a
/// developer without a device) reads to finish the silent-push flow by hand.
public struct DevOutboxPushSender: PushSender {
    let store: any AuthStore

    /// Creates the sender over `store`'s outbox.
    public init(store: any AuthStore) {
        self.store = store
    }

    public func send(_ push: PushMessage) async throws {
        let record = push.outboxRecord
        _ = try await store.write { tx in try await tx.appendOutbox(record) }
    }
}
