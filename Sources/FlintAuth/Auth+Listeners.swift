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
        addListener(listener) { state, key, callback in
            state.stateListeners[key] = StateListener(block: callback, lastUID: state.currentUser?.uid)
        }
    }

    /// Stops a state listener.
    public func removeStateDidChangeListener(_ listenerHandle: any NSObjectProtocol) {
        removeListener(listenerHandle, from: \.stateListeners)
    }

    /// Calls `listener` now (asynchronously) and whenever the ID token changes: sign-in, refresh, sign-out.
    @discardableResult
    public func addIDTokenDidChangeListener(_ listener: @escaping IDTokenDidChangeListenerBlock) -> IDTokenDidChangeListenerHandle {
        addListener(listener) { state, key, callback in state.tokenListeners[key] = callback }
    }

    /// Stops an ID-token listener.
    public func removeIDTokenDidChangeListener(_ listenerHandle: any NSObjectProtocol) {
        removeListener(listenerHandle, from: \.tokenListeners)
    }

    /// Files `listener` under a new handle (`register` puts it in its table, under the handle's key), then calls it
    /// with the current user on the main queue.
    private func addListener(
        _ listener: @escaping (Auth, User?) -> Void,
        register: (inout State, ObjectIdentifier, Callback<(Auth, User?) -> Void>) -> Void
    ) -> ListenerHandle {
        let handle = ListenerHandle()
        let callback = Callback(function: listener)
        let user = state.withLock { state -> User? in
            register(&state, ObjectIdentifier(handle), callback)
            return state.currentUser
        }
        callbackQueue.async { callback.function(self, user) }
        return handle
    }

    /// Takes the listener of `listenerHandle` out of one table; a handle of the other kind, or of none, is ignored.
    private func removeListener<Listener>(_ listenerHandle: any NSObjectProtocol, from table: WritableKeyPath<State, [ObjectIdentifier: Listener]>) {
        guard let handle = listenerHandle as? ListenerHandle else { return }
        _ = state.withLock { $0[keyPath: table].removeValue(forKey: ObjectIdentifier(handle)) }
    }

    /// Tells the ID-token listeners, and the state listeners whose last user differs from the current one, then
    /// posts ``authStateDidChangeNotification``.
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
        callbackQueue.async {
            for block in blocks { block.function(self, user) }
            NotificationCenter.default.post(name: Auth.authStateDidChangeNotification, object: self)
        }
    }

    /// Posted through `NotificationCenter.default`, on the main queue, whenever the ID-token listeners are told:
    /// sign-in, token refresh, sign-out. The notification's object is the `Auth`. FirebaseAuth's
    /// `FIRAuthStateDidChangeNotification`.
    public static let authStateDidChangeNotification = Notification.Name("FIRAuthStateDidChangeNotification")
}

extension Notification.Name {
    /// ``Auth/authStateDidChangeNotification``, under the name FirebaseAuth's Objective-C header gives Swift.
    public static let AuthStateDidChange = Auth.authStateDidChangeNotification
}
