public import Foundation

/// A listener of sign-in state: called with the `Auth` and its current user.
public typealias AuthStateDidChangeListenerBlock = (Auth, User?) -> Void
/// A listener of ID-token changes: called with the `Auth` and its current user.
public typealias IDTokenDidChangeListenerBlock = (Auth, User?) -> Void

/// What `addStateDidChangeListener(_:)` returns, to pass to `removeStateDidChangeListener(_:)`.
public typealias AuthStateDidChangeListenerHandle = any NSObjectProtocol
/// What `addIDTokenDidChangeListener(_:)` returns, to pass to `removeIDTokenDidChangeListener(_:)`.
public typealias IDTokenDidChangeListenerHandle = any NSObjectProtocol

/// The handle a listener is removed with.
final class ListenerHandle: NSObject, @unchecked Sendable {}

extension Auth {
    /// Calls `listener` now (asynchronously) and whenever the signed-in user changes (sign-in, sign-out, another
    /// user). Listeners run on the main queue.
    @discardableResult
    public func addStateDidChangeListener(_ listener: @escaping AuthStateDidChangeListenerBlock) -> AuthStateDidChangeListenerHandle {
        let handle = ListenerHandle()
        let callback = Callback(function: listener)
        let user = state.withLock { state -> User? in
            state.stateListeners[ObjectIdentifier(handle)] = StateListener(block: callback, lastUID: state.currentUser?.uid)
            return state.currentUser
        }
        callbackQueue.async { callback.function(self, user) }
        return handle
    }

    /// Stops a state listener.
    public func removeStateDidChangeListener(_ listenerHandle: any NSObjectProtocol) {
        guard let handle = listenerHandle as? ListenerHandle else { return }
        _ = state.withLock { $0.stateListeners.removeValue(forKey: ObjectIdentifier(handle)) }
    }

    /// Calls `listener` now (asynchronously) and whenever the ID token changes: sign-in, refresh, sign-out.
    @discardableResult
    public func addIDTokenDidChangeListener(_ listener: @escaping IDTokenDidChangeListenerBlock) -> IDTokenDidChangeListenerHandle {
        let handle = ListenerHandle()
        let callback = Callback(function: listener)
        let user = state.withLock { state -> User? in
            state.tokenListeners[ObjectIdentifier(handle)] = callback
            return state.currentUser
        }
        callbackQueue.async { callback.function(self, user) }
        return handle
    }

    /// Stops an ID-token listener.
    public func removeIDTokenDidChangeListener(_ listenerHandle: any NSObjectProtocol) {
        guard let handle = listenerHandle as? ListenerHandle else { return }
        _ = state.withLock { $0.tokenListeners.removeValue(forKey: ObjectIdentifier(handle)) }
    }

    /// Tells the ID-token listeners, and the state listeners whose last user differs from the current one.
    func notifyListeners() {
        let (user, blocks) = state.withLock { state -> (User?, [Callback<AuthStateDidChangeListenerBlock>]) in
            let uid = state.currentUser?.uid
            var blocks = Array(state.tokenListeners.values)
            for (key, listener) in state.stateListeners where listener.lastUID != uid {
                state.stateListeners[key]?.lastUID = uid
                blocks.append(listener.block)
            }
            return (state.currentUser, blocks)
        }
        callbackQueue.async { for block in blocks { block.function(self, user) } }
    }
}
