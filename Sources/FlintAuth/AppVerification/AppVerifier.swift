import Foundation

/// The app-verification state of one `Auth`: the APNs token, the app credential and the receipts waiting for
/// their push, the pending web challenge, and the notification-forwarding probe. Pushes and callback URLs reach it
/// through `Auth.canHandleNotification(_:)` and `Auth.canHandle(_:)`, which resume the waiting `verifyPhoneNumber`.
final class AppVerifier: Sendable {
    /// The key of Firebase Auth's data in a push's `userInfo`.
    static let notificationKey = "com.google.firebase.auth"
    /// How long the forwarding probe waits for its fake notification, seconds.
    static let probeTimeout: TimeInterval = 1

    /// A web page on screen (the challenge, or a provider's sign-in), waiting for its callback URL.
    struct Presentation {
        let id: UUID
        let eventID: String
        let callbackScheme: String
        /// The callback's `authType`: `verifyApp` or `signInWithRedirect`.
        let authType: String
        let continuation: CheckedContinuation<URL, any Error>
    }

    /// Whether the app forwards remote notifications to `canHandleNotification`.
    enum Probe {
        case notRun
        case running(CheckedContinuation<Bool, Never>)
        case done(Bool)
    }

    struct State {
        var apnsToken: Data?
        var tokenType: AuthAPNSTokenType = .unknown
        var stored: AppCredentialStore.Stored
        var secretWaiters: [String: CheckedContinuation<String?, Never>] = [:]
        var presentation: Presentation?
        var probe: Probe = .notRun
    }

    let store: AppCredentialStore
    let state: Locked<State>

    init(store: AppCredentialStore) {
        self.store = store
        state = Locked(State(stored: store.load()))
    }

    // MARK: APNs token and credential

    /// Records the device's APNs token.
    func setAPNSToken(_ token: Data, type: AuthAPNSTokenType) {
        state.withLock {
            $0.apnsToken = token
            $0.tokenType = type
        }
    }

    /// The stored receipt and secret, if a push delivered one.
    var credential: AppCredential? { state.current.stored.credential }

    /// Forgets the stored credential (the server refused it).
    func clearCredential() {
        state.withLock { state in
            state.stored.credential = nil
            store.save(state.stored)
        }
    }

    /// Remembers `receipt` as waiting for its push (the oldest beyond 32 are dropped).
    func didStartVerification(receipt: String) {
        state.withLock { state in
            state.stored.pendingReceipts.removeAll { $0 == receipt }
            state.stored.pendingReceipts.append(receipt)
            if state.stored.pendingReceipts.count > AppCredentialStore.maxPendingReceipts {
                state.stored.pendingReceipts.removeFirst(state.stored.pendingReceipts.count - AppCredentialStore.maxPendingReceipts)
            }
            store.save(state.stored)
        }
    }

    /// Waits up to `timeout` seconds for the secret of `receipt`; `nil` when it did not come. A secret that comes
    /// later is still stored and used by the next verification.
    func waitForSecret(receipt: String, timeout: TimeInterval) async -> String? {
        await withCheckedContinuation { (continuation: CheckedContinuation<String?, Never>) in
            let arrived = state.withLock { state -> String? in
                if let credential = state.stored.credential, credential.receipt == receipt { return credential.secret }
                state.secretWaiters[receipt]?.resume(returning: nil)
                state.secretWaiters[receipt] = continuation
                return nil
            }
            if let arrived {
                continuation.resume(returning: arrived)
                return
            }
            Task {
                try? await Task.sleep(nanoseconds: UInt64(min(max(timeout, 0), 1e9) * 1_000_000_000))
                let waiter = self.state.withLock { $0.secretWaiters.removeValue(forKey: receipt) }
                waiter?.resume(returning: nil)
            }
        }
    }

    // MARK: Notifications

    /// FirebaseAuth's `canHandle(notification:)`: Firebase Auth's part of `userInfo` (a dictionary, or a JSON string
    /// of one) is either the forwarding probe's `warning` (accepted only while the probe runs) or a `receipt` and
    /// `secret`, accepted only for a receipt that is waiting. Anything else is not ours.
    func canHandleNotification(_ userInfo: [AnyHashable: Any]) -> Bool {
        guard let payload = Self.authPayload(userInfo) else { return false }
        if payload["warning"] != nil {
            let probe = state.withLock { state -> CheckedContinuation<Bool, Never>? in
                guard case .running(let continuation) = state.probe else { return nil }
                state.probe = .done(true)
                return continuation
            }
            guard let probe else { return false }
            probe.resume(returning: true)
            return true
        }
        guard let receipt = payload["receipt"] as? String, !receipt.isEmpty, let secret = payload["secret"] as? String, !secret.isEmpty else {
            return false
        }
        let accepted = state.withLock { state -> (Bool, CheckedContinuation<String?, Never>?) in
            guard state.stored.pendingReceipts.contains(receipt) else { return (false, nil) }
            state.stored.pendingReceipts.removeAll { $0 == receipt }
            state.stored.credential = AppCredential(receipt: receipt, secret: secret)
            store.save(state.stored)
            return (true, state.secretWaiters.removeValue(forKey: receipt))
        }
        accepted.1?.resume(returning: secret)
        return accepted.0
    }

    /// Firebase Auth's part of a notification, as a dictionary.
    static func authPayload(_ userInfo: [AnyHashable: Any]) -> [String: Any]? {
        switch userInfo[notificationKey] {
        case let dictionary as [String: Any]:
            return dictionary
        case let dictionary as [AnyHashable: Any]:
            var out: [String: Any] = [:]
            for (key, value) in dictionary { if let key = key as? String { out[key] = value } }
            return out
        case let text as String:
            guard let data = text.data(using: .utf8) else { return nil }
            return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        default:
            return nil
        }
    }

    /// The probe's fake notification.
    static func probeNotification() -> [AnyHashable: Any] {
        [notificationKey: ["warning": "This fake notification should be forwarded to Firebase Auth."]]
    }

    /// Whether notifications reach `canHandleNotification`: `deliver` hands ``probeNotification()`` to the app's
    /// notification handler, which must pass it on within a second. The answer is kept for the process.
    func checkNotificationForwarding(deliver: @escaping @Sendable () async -> Void) async -> Bool {
        if case .done(let forwarded) = state.current.probe { return forwarded }
        return await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let outcome = state.withLock { state -> Bool? in
                switch state.probe {
                case .notRun:
                    state.probe = .running(continuation)
                    return nil
                case .done(let forwarded): return forwarded
                case .running: return false  // a concurrent probe is under way; this caller does not wait for it
                }
            }
            if let outcome {
                continuation.resume(returning: outcome)
                return
            }
            Task {
                await deliver()
                try? await Task.sleep(nanoseconds: UInt64(Self.probeTimeout * 1_000_000_000))
                let waiting = self.state.withLock { state -> CheckedContinuation<Bool, Never>? in
                    guard case .running(let continuation) = state.probe else { return nil }
                    state.probe = .done(false)
                    return continuation
                }
                waiting?.resume(returning: false)
            }
        }
    }
}
