import Foundation

/// Keeps the current user's ID token fresh in the background (FirebaseAuth's `scheduleAutoTokenRefresh`): turned on
/// once a token has been handed out, it refreshes `max(expiry - now - 300 s, 0)` from now (on the app's clock,
/// `Backend.now`); after a failure it
/// retries in 60 s, doubling up to 16 minutes. Its task holds the `Auth` and the user weakly, so it never keeps
/// either alive, and it is cancelled on sign-out, on a change of user and when the `Auth` goes away. A sleeping task
/// does not keep a process alive.
final class TokenAutoRefresh: Sendable {
    /// Waits `seconds`; throws when the task is cancelled. Tests inject one that records the delays.
    typealias Sleep = @Sendable (_ seconds: TimeInterval) async throws -> Void

    struct State: Sendable {
        /// Whether a token was handed out, which turns the refresh on for this and later users.
        var enabled = false
        var task: Task<Void, Never>?
        var user: ObjectIdentifier?
    }

    static let firstRetry: TimeInterval = 60
    static let longestRetry: TimeInterval = 16 * 60

    let state = Locked(State())
    private let sleep: Sleep

    init(sleep: @escaping Sleep = { seconds in try await Task.sleep(nanoseconds: UInt64(min(max(seconds, 0), 1e9) * 1_000_000_000)) }) {
        self.sleep = sleep
    }

    deinit { state.current.task?.cancel() }

    /// The delay before the next attempt: until five minutes before `expiry` after a success, otherwise 60 s doubled
    /// for each further failure, at most 16 minutes.
    static func delay(expiry: Date, now: Date, failures: Int) -> TimeInterval {
        guard failures > 0 else { return max(expiry.timeIntervalSince(now) - SecureTokenService.refreshMargin, 0) }
        let doubled = firstRetry * pow(2, Double(min(failures - 1, 10)))
        return min(doubled, longestRetry)
    }

    /// Turns the refresh on (a token was handed out) and starts it for `user` unless it already runs for it.
    func tokenHandedOut(by user: User, auth: Auth) {
        let start = state.withLock { state -> Bool in
            state.enabled = true
            return state.user != ObjectIdentifier(user) || state.task == nil
        }
        if start { restart(for: user, auth: auth) }
    }

    /// The current user changed: refresh for the new one when turned on, stop otherwise.
    func currentUserChanged(to user: User?, auth: Auth) {
        guard let user, state.current.enabled else {
            stop()
            return
        }
        if state.current.user != ObjectIdentifier(user) || state.current.task == nil { restart(for: user, auth: auth) }
    }

    /// Cancels the running task, if any.
    func stop() {
        let task = state.withLock { state -> Task<Void, Never>? in
            defer { (state.task, state.user) = (nil, nil) }
            return state.task
        }
        task?.cancel()
    }

    private func restart(for user: User, auth: Auth) {
        let sleep = self.sleep
        let task = Task { [weak auth, weak user] in
            var failures = 0
            while !Task.isCancelled {
                guard let service = user?.tokenService else { return }
                let expiry = await service.tokens.expirationDate
                do {
                    try await sleep(Self.delay(expiry: expiry, now: service.now(), failures: failures))
                } catch {
                    return
                }
                if Task.isCancelled { return }
                guard let auth, let user, auth.currentUser === user else { return }
                do {
                    _ = try await user.getIDToken()
                    failures = 0
                } catch {
                    // A session that ended signed the user out inside getIDToken; the check above then stops.
                    failures += 1
                }
            }
        }
        let previous = state.withLock { state -> Task<Void, Never>? in
            defer { (state.task, state.user) = (task, ObjectIdentifier(user)) }
            return state.task
        }
        previous?.cancel()
    }
}
