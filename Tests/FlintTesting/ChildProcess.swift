public import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Child processes awaited without holding a thread of Swift concurrency's cooperative pool.
///
/// The pool has as many threads as the machine has cores (two here). A test that waits for a child with
/// `waitUntilExit()` or reads its pipe to the end with `readDataToEndOfFile()` blocks one of them for as long as the
/// child runs; two such tests at once block them all, and when the child needs something this process serves (a
/// server task, an SMTP stand-in, another test's node), nothing runs and the suite stalls. Here each wait happens on a
/// thread of its own, and the awaiting task is resumed when it ends.
public enum ChildProcess {
    /// What a finished child left.
    public struct Outcome: Sendable {
        /// Its exit status.
        public let status: Int32
        /// What it wrote to standard output.
        public let output: String
        /// What it wrote to standard error (empty when it was merged into `output`).
        public let error: String
    }

    /// Runs `executable` with `arguments` to its end and returns what it printed.
    /// - Parameters:
    ///   - environment: variables added to this process's (a value replaces one of the same name).
    ///   - mergingError: whether standard error goes to `output` too (in the order written).
    ///   - input: bytes written to its standard input, which is then closed (`nil`: it inherits this process's).
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:], mergingError: Bool = true, input: Data? = nil
    ) async throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        let outputPipe = Pipe()
        let errorPipe = mergingError ? outputPipe : Pipe()
        process.standardOutput = outputPipe
        process.standardError = errorPipe
        let inputPipe = input.map { _ in Pipe() }
        if let inputPipe { process.standardInput = inputPipe }
        try start(process)
        if let inputPipe, let input {
            try? inputPipe.fileHandleForWriting.write(contentsOf: input)
            try? inputPipe.fileHandleForWriting.close()
        }
        // Both pipes are drained at once, so a child that fills one while this side reads the other cannot stall.
        async let output = readToEnd(outputPipe.fileHandleForReading)
        async let error = mergingError ? Data() : readToEnd(errorPipe.fileHandleForReading)
        let (out, err) = await (output, error)
        let status = await exitStatus(of: process)
        return Outcome(status: status, output: String(decoding: out, as: UTF8.self), error: String(decoding: err, as: UTF8.self))
    }

    /// Starts `process` with no signal blocked. A child inherits the signal mask of the thread that starts it, which
    /// Foundation's `Process` leaves as it is, and the threads of Swift concurrency's pool (libdispatch's workers) block
    /// nearly every signal: started from one of them, a child would not end on SIGTERM or SIGINT, and `timeout` could not
    /// end what it runs. The starting thread's mask is emptied for the start, then restored.
    public static func start(_ process: Process) throws {
        var none = sigset_t()
        var previous = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        try process.run()
    }

    /// Waits for `process` (started) to exit and returns its status.
    public static func exitStatus(of process: Process) async -> Int32 {
        let box = ProcessBox(process)
        return await onOwnThread {
            box.object.waitUntilExit(); return box.object.terminationStatus
        }
    }

    /// Reads `handle` until its end.
    public static func readToEnd(_ handle: FileHandle) async -> Data {
        let box = ProcessBox(handle)
        return await onOwnThread { (try? box.object.readToEnd()) ?? Data() }
    }
}

/// Hands a non-`Sendable` Foundation object to the one thread that uses it from then on.
private final class ProcessBox<Object>: @unchecked Sendable {
    let object: Object
    init(_ object: Object) { self.object = object }
}
