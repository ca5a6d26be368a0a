import FlintStore
import Synchronization

/// What wakes a node's webhook dispatcher: a write this node committed while a subscription exists (the audit event
/// it may hold), or a subscription's change announced by any node. With no subscription a write costs one atomic load.
final class WebhookWake: Sendable {
    private let active = Atomic<Bool>(false)
    private let state = Mutex<(pending: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))

    /// Whether an enabled subscription exists, as the dispatcher last read.
    var isActive: Bool {
        get { active.load(ordering: .relaxed) }
        set { active.store(newValue, ordering: .relaxed) }
    }

    /// A write was committed: wakes the dispatcher when a subscription may want its events.
    func written() {
        if isActive { signal() }
    }

    /// Wakes the dispatcher (now, or at its next wait).
    func signal() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            state.pending = true
            return nil
        }
        waiter?.resume()
    }

    /// Returns at the next signal (one since the last wait counts) or after `limit`, whichever comes first.
    func wait(upTo limit: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.nextSignal() }
            group.addTask { try? await Task.sleep(for: limit) }
            await group.next()
            group.cancelAll()
        }
    }

    private func nextSignal() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    if state.pending || Task.isCancelled {
                        state.pending = false
                        return true
                    }
                    state.waiter = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume()
        }
    }
}

/// The node's store as its flows see it: after each committed write, tells ``WebhookWake`` (nothing is added to the
/// transaction, and nothing at all is done while no subscription exists).
struct WebhookWakingStore: AuthStore {
    let base: any AuthStore
    let wake: WebhookWake

    func write<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) async throws -> T) async throws -> T {
        let result = try await base.write(body)
        wake.written()
        return result
    }

    func read<T: Sendable>(_ body: @escaping @Sendable (any StoreReader) async throws -> T) async throws -> T {
        try await base.read(body)
    }

    func close() async throws { try await base.close() }

    func announce(_ change: StoreChange) async { await base.announce(change) }

    func changes() -> AsyncStream<StoreChange> { base.changes() }
}
