import Synchronization

/// Fans announced changes out to this process's subscribers.
final class ChangeFeed: Sendable {
    private let subscribers = Mutex<[Int: AsyncStream<StoreChange>.Continuation]>([:])
    private let nextID = Atomic<Int>(0)

    /// A new subscription; it ends when ``finish()`` is called or its consumer goes away.
    func subscribe() -> AsyncStream<StoreChange> {
        let id = nextID.add(1, ordering: .relaxed).newValue
        let (stream, continuation) = AsyncStream.makeStream(of: StoreChange.self, bufferingPolicy: .bufferingNewest(16))
        continuation.onTermination = { [weak self] _ in _ = self?.subscribers.withLock { $0.removeValue(forKey: id) } }
        subscribers.withLock { $0[id] = continuation }
        return stream
    }

    /// Hands `change` to every subscriber.
    func publish(_ change: StoreChange) {
        for continuation in subscribers.withLock({ Array($0.values) }) { continuation.yield(change) }
    }

    /// Ends every subscription.
    func finish() {
        for continuation in subscribers.withLock({ s in
            defer { s.removeAll() }; return Array(s.values)
        }) { continuation.finish() }
    }
}
