import Foundation

/// A value guarded by a lock, for the SDK's small pieces of shared mutable state.
final class Locked<Value: Sendable>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()

    init(_ value: Value) { self.value = value }

    /// Runs `body` with exclusive access to the value.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    /// A copy of the current value.
    var current: Value { withLock { $0 } }
}

/// Where completions and listeners run: the main queue, as FirebaseAuth. Like FirebaseAuth's, they are plain
/// (non-`Sendable`) closures, so code written for FirebaseAuth — a view controller's `self.showMessagePrompt(...)`
/// in a completion — compiles unchanged under Swift 6; closures formed on the main actor run on it. A program
/// whose main thread never runs the main queue (a synchronous `main` that blocks) gets no callbacks: use the
/// `async` forms there, or `dispatchMain()`.
let callbackQueue = DispatchQueue.main

/// A callback carried to the queue it runs on. The SDK calls it once (completions) or only on `callbackQueue`
/// (listeners), never concurrently, which is what makes handing a non-`Sendable` closure across safe.
struct Callback<Function>: @unchecked Sendable {
    let function: Function
}

/// Runs `operation` and hands its result to `completion` on the callback queue.
func deliver<T: Sendable>(
    _ completion: ((T?, (any Error)?) -> Void)?, _ operation: @escaping @Sendable () async throws -> T
) {
    let callback = Callback(function: completion)
    Task {
        do {
            let value = try await operation()
            callbackQueue.async { callback.function?(value, nil) }
        } catch {
            callbackQueue.async { callback.function?(nil, error) }
        }
    }
}

/// Runs `operation` and hands its error, if any, to `completion` on the callback queue.
func deliver(_ completion: (((any Error)?) -> Void)?, _ operation: @escaping @Sendable () async throws -> Void) {
    let callback = Callback(function: completion)
    Task {
        do {
            try await operation()
            callbackQueue.async { callback.function?(nil) }
        } catch {
            callbackQueue.async { callback.function?(error) }
        }
    }
}
