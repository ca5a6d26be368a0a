import Foundation

#if os(iOS) || os(tvOS) || os(visionOS)
    import UIKit
#endif

/// A `NotificationCenter` observer handle, kept until it is removed.
struct ObserverToken: @unchecked Sendable {
    // Only handed back to `NotificationCenter.removeObserver(_:)`.
    let value: any NSObjectProtocol
}

extension Auth {
    /// Before the device's first unlock (a background launch, app prewarming) the Keychain refuses to be read, so
    /// no user was restored although one may be stored; as FirebaseAuth does, the user is read again once protected
    /// data becomes available. Nothing to do elsewhere: files are never locked.
    func restoreWhenProtectedDataIsAvailable() {
        #if os(iOS) || os(tvOS) || os(visionOS)
            guard currentUser == nil, store.lockedAtLastLoad else { return }
            let token = NotificationCenter.default.addObserver(
                forName: UIApplication.protectedDataDidBecomeAvailableNotification, object: nil, queue: nil
            ) { [weak self] _ in
                self?.restoreStoredUserIfNone()
            }
            protectedDataObserver.withLock { $0 = ObserverToken(value: token) }
        #endif
    }

    /// Reads the stored user again and makes it current if nobody signed in meanwhile; tells the listeners.
    func restoreStoredUserIfNone() {
        if let token = protectedDataObserver.withLock({ token -> ObserverToken? in
            defer { token = nil }
            return token
        }) {
            NotificationCenter.default.removeObserver(token.value)
        }
        guard let user = storedUser() else { return }
        let restored = state.withLock { state -> Bool in
            guard state.currentUser == nil else { return false }
            state.currentUser = user
            return true
        }
        if restored { notifyListeners() }
    }
}
