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

/// Where completions and listeners run: the main queue on Apple platforms (as FirebaseAuth), and a serial queue on
/// Linux, where a command-line program or server may never drain the main queue.
let callbackQueue: DispatchQueue = {
    #if canImport(Darwin)
        return DispatchQueue.main
    #else
        return DispatchQueue(label: "FlintAuth.callbacks")
    #endif
}()

/// Runs `operation` and hands its result to `completion` on the callback queue.
func deliver<T: Sendable>(
    _ completion: (@Sendable (T?, (any Error)?) -> Void)?, _ operation: @escaping @Sendable () async throws -> T
) {
    Task {
        do {
            let value = try await operation()
            callbackQueue.async { completion?(value, nil) }
        } catch {
            callbackQueue.async { completion?(nil, error) }
        }
    }
}

/// Runs `operation` and hands its error, if any, to `completion` on the callback queue.
func deliver(_ completion: (@Sendable ((any Error)?) -> Void)?, _ operation: @escaping @Sendable () async throws -> Void) {
    Task {
        do {
            try await operation()
            callbackQueue.async { completion?(nil) }
        } catch {
            callbackQueue.async { completion?(error) }
        }
    }
}
