import Dispatch

/// A task executor backed by one serial dispatch queue: everything a task runs while it prefers this executor runs
/// on that queue, one job at a time. The store gives each SQLite connection its own, so synchronous SQLite calls
/// never block the shared cooperative pool and a whole transaction runs without a thread hop.
final class ThreadExecutor: TaskExecutor, Sendable {
    private let queue: DispatchQueue

    init(label: String) {
        queue = DispatchQueue(label: label, qos: .userInitiated)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
