import NIOConcurrencyHelpers

/// Lets at most `width` callers run at once; the others wait, first come first served. Tests use one to bound work
/// that every test would otherwise start at the same moment (Swift Testing runs a process's tests in parallel).
package final class AsyncGate: Sendable {
    private struct State {
        var free: Int
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state: NIOLockedValueBox<State>

    /// A gate that lets `width` (at least one) callers through at once.
    package init(width: Int) {
        state = NIOLockedValueBox(State(free: max(1, width)))
    }

    /// Waits for a place, runs `body`, and gives the place to the next waiter.
    package func pass<T>(_ body: () async throws -> T) async rethrows -> T {
        await enter()
        defer { leave() }
        return try await body()
    }

    private func enter() async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let admitted = state.withLockedValue { state in
                guard state.free > 0 else {
                    state.waiting.append(waiter)
                    return false
                }
                state.free -= 1
                return true
            }
            if admitted { waiter.resume() }
        }
    }

    private func leave() {
        let next = state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty else {
                state.free += 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
