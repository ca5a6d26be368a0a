import Synchronization

/// One queued write transaction.
struct WriteJob: Sendable {
    /// Runs the caller's closure; `true` if it succeeded (its writes stay), `false` if it threw (roll back).
    let execute: @Sendable (any StoreTransaction) async -> Bool
    /// Answers the caller once the batch's fate is known: `nil` when committed, else the commit's error.
    let complete: @Sendable ((any Error)?) -> Void
}

/// Holds a job's own result until its batch commits.
final class JobOutcome<T: Sendable>: Sendable {
    private let value = Mutex<Result<T, any Error>?>(nil)

    func set(_ result: Result<T, any Error>) { value.withLock { $0 = result } }
    func get() -> Result<T, any Error>? { value.withLock { $0 } }
}

/// The writer's inbox.
typealias WriteQueue = JobQueue<WriteJob>

/// An inbox drained by one loop: jobs plus a wake-up signal (coalesced, so one wake-up drains everything queued).
/// Under load the loop finds many jobs per wake-up, so a hop to its thread is paid once per batch, not per job.
final class JobQueue<Job: Sendable>: Sendable {
    private let state = Mutex<(jobs: [Job], open: Bool)>(([], true))
    let signals: AsyncStream<Void>
    private let signal: AsyncStream<Void>.Continuation

    init() {
        (signals, signal) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Queues a job; `false` once the queue is closed.
    func enqueue(_ job: Job) -> Bool {
        let accepted = state.withLock { s in
            guard s.open else { return false }
            s.jobs.append(job)
            return true
        }
        if accepted { signal.yield() }
        return accepted
    }

    /// Takes up to `max` jobs, oldest first.
    func drain(max: Int) -> [Job] {
        state.withLock { s in
            let n = Swift.min(max, s.jobs.count)
            let batch = Array(s.jobs.prefix(n))
            s.jobs.removeFirst(n)
            return batch
        }
    }

    /// Stops accepting jobs; the loop ends after draining what is queued.
    func finish() {
        state.withLock { $0.open = false }
        signal.finish()
    }
}
