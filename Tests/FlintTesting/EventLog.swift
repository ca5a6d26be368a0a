import Foundation
import Synchronization

/// Events a test records from any thread (a listener's calls, a load's answers), and waits for by count: a waiter is
/// resumed by the recording that completes its count, never by polling or sleeping. A wait gives up after `limit` —
/// a guard against a hang, never a delay — and returns what arrived, so the test's expectations fail instead.
public final class EventLog<Element: Sendable>: Sendable {
    private struct Waiter {
        let id: Int
        let count: Int
        let continuation: CheckedContinuation<[Element], Never>
    }

    private struct State {
        var events: [Element] = []
        var waiters: [Waiter] = []
        var nextID = 0
    }

    private let state = Mutex(State())

    public init() {}

    /// What was recorded so far, in order.
    public var events: [Element] { state.withLock { $0.events } }

    /// Records `event` and resumes the waiters whose count it completes.
    public func record(_ event: Element) {
        let (ready, events) = state.withLock { state -> ([Waiter], [Element]) in
            state.events.append(event)
            let ready = state.waiters.filter { $0.count <= state.events.count }
            state.waiters.removeAll { $0.count <= state.events.count }
            return (ready, state.events)
        }
        for waiter in ready { waiter.continuation.resume(returning: events) }
    }

    /// Waits until `count` events were recorded and returns them all; after `limit`, returns fewer.
    public func wait(for count: Int, limit: Duration = .seconds(30)) async -> [Element] {
        await withCheckedContinuation { (continuation: CheckedContinuation<[Element], Never>) in
            let (arrived, id) = state.withLock { state -> ([Element]?, Int) in
                if state.events.count >= count { return (state.events, 0) }
                state.nextID += 1
                state.waiters.append(Waiter(id: state.nextID, count: count, continuation: continuation))
                return (nil, state.nextID)
            }
            if let arrived { return continuation.resume(returning: arrived) }
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(Int(limit / .milliseconds(1)))) { [self] in
                let late = state.withLock { state -> (Waiter, [Element])? in
                    guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                    return (state.waiters.remove(at: index), state.events)
                }
                if let (waiter, events) = late { waiter.continuation.resume(returning: events) }
            }
        }
    }
}
