import Foundation

/// Runs `work`, which blocks (a wait for a child process, a pipe or socket read, a `poll`), on a new thread and returns
/// its result to the awaiting task, which holds no thread meanwhile.
///
/// Swift concurrency's cooperative pool has one thread per core (two here). A test that blocked one of them in such a
/// call, while another test blocked the other, would stall every task of the test process — the ones that would
/// unblock them too (a server task the child talks to, the task that answers on the socket). Tests make every
/// blocking call through this function (``ChildProcess`` does for child processes).
public func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        let thread = Thread { continuation.resume(returning: work()) }
        thread.stackSize = 1 << 20
        thread.start()
    }
}
