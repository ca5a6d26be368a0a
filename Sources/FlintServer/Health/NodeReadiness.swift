public import FlintCore
public import FlintStore
import Synchronization

/// Whether the node should be sent traffic, as `GET /readyz` answers load balancers: not while it starts (the store
/// opening and migrating, keys and config loading), not while its database does not answer, not while it drains at
/// shutdown. The database check is one tiny read (the schema version), made at most once per ``checkInterval`` however
/// many probes come: probes within the interval get the last outcome, and probes that come while a check runs wait
/// for that one.
public final class NodeReadiness: Sendable {
    /// Why the node is not ready.
    public struct Reason: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The node starts: connecting to the database, running migrations, loading keys and config.
        public static let starting = Reason(rawValue: "starting")
        /// The last database check failed or took longer than ``NodeReadiness/checkTimeout``.
        public static let databaseUnreachable = Reason(rawValue: "database unreachable")
        /// Graceful shutdown began: the node finishes what it serves and stops.
        public static let draining = Reason(rawValue: "draining")
    }

    /// How long a database check's outcome stands.
    public static let checkInterval: Duration = .seconds(2)
    /// How long a database check may take before it counts as failed.
    public static let checkTimeout: Duration = .seconds(2)

    private enum Phase {
        case starting
        case serving(any AuthStore)
        case draining
    }

    private struct State {
        var phase = Phase.starting
        /// The last check's end and outcome.
        var checked: (at: Instant, reachable: Bool)?
        /// The check under way, which probes that come meanwhile wait for.
        var running: Task<Bool, Never>?
    }

    private let state = Mutex(State())
    private let clock: any WallClock

    /// A node that is starting.
    /// - Parameter clock: the clock the checks' interval is measured on.
    public init(clock: any WallClock) {
        self.clock = clock
    }

    /// The node serves: from now on it is ready while `store` answers.
    public func serve(_ store: any AuthStore) {
        state.withLock { $0.phase = .serving(store) }
    }

    /// Graceful shutdown began: the node is no longer ready, whatever its database says.
    public func drain() {
        state.withLock { $0.phase = .draining }
    }

    private enum Step {
        case answer(Reason?)
        case wait(Task<Bool, Never>)
    }

    /// Whether the node is ready: `nil`, or why not.
    public func notReadyReason() async -> Reason? {
        let now = clock.now()
        let step: Step = state.withLock { state in
            switch state.phase {
            case .starting: return .answer(.starting)
            case .draining: return .answer(.draining)
            case .serving(let store):
                if let checked = state.checked, checked.at <= now, now - checked.at < Self.checkInterval {
                    return .answer(checked.reachable ? nil : .databaseUnreachable)
                }
                if let running = state.running { return .wait(running) }
                let check = Task { await Self.reaches(store) }
                state.running = check
                return .wait(check)
            }
        }
        switch step {
        case .answer(let reason): return reason
        case .wait(let check):
            let reachable = await check.value
            let end = clock.now()
            return state.withLock { state in
                if state.running == check { (state.running, state.checked) = (nil, (end, reachable)) }
                if case .draining = state.phase { return .draining }
                return reachable ? nil : .databaseUnreachable
            }
        }
    }

    /// Whether `store` answers one read within ``checkTimeout``. The read is not awaited past it: a read stuck on a
    /// dead connection does not hold the probes.
    private static func reaches(_ store: any AuthStore) async -> Bool {
        let outcome = FirstOutcome()
        return await withCheckedContinuation { continuation in
            outcome.waiter.withLock { $0 = continuation }
            let read = Task { outcome.settle((try? await store.read { try await $0.schemaVersion() }) != nil) }
            Task {
                try? await Task.sleep(for: checkTimeout)
                read.cancel()
                outcome.settle(false)
            }
        }
    }

    /// Resumes a waiter with the first of two outcomes.
    private final class FirstOutcome: Sendable {
        let waiter = Mutex<CheckedContinuation<Bool, Never>?>(nil)

        func settle(_ value: Bool) {
            waiter.withLock { waiting in
                let continuation = waiting
                waiting = nil
                return continuation
            }?.resume(returning: value)
        }
    }
}
