import FlintTesting
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("Child processes are awaited without holding the cooperative pool")
struct ChildProcessTests {
    @Test(
        "more children awaited at once than the pool has threads, each waiting for this process to act: none stalls",
        // A guard against a hang (the stall this test is about), not a speed target: in a full run the suite's other
        // tests keep the pool busy and this one may wait its turn for a minute or more.
        .timeLimit(.minutes(5)))
    func manyChildrenWaitingForThisProcess() async throws {
        let directory = temporaryDataDirectory()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let go = directory + "/go"
        // Twice the pool's threads: with a blocking wait, the children's waits alone would hold every thread, and the
        // task that lets them finish would never run.
        let count = max(4, 2 * ProcessInfo.processInfo.activeProcessorCount)
        let outputs = try await withThrowingTaskGroup(of: String.self) { group in
            for i in 0..<count {
                group.addTask {
                    let script = #"touch "$1/started-$2"; while [ ! -e "$1/go" ]; do sleep 0.02; done; echo "child $2""#
                    let outcome = try await ChildProcess.run("/bin/sh", ["-c", script, "sh", directory, String(i)])
                    #expect(outcome.status == 0)
                    return outcome.output
                }
            }
            group.addTask {
                // The children are real processes: wait until every one has started, then let them go.
                while (try? FileManager.default.contentsOfDirectory(atPath: directory))?.filter({ $0.hasPrefix("started-") }).count ?? 0 < count {
                    try await Task.sleep(for: .milliseconds(20))
                }
                _ = FileManager.default.createFile(atPath: go, contents: nil)
                return ""
            }
            var outputs: [String] = []
            for try await output in group where !output.isEmpty { outputs.append(output) }
            return outputs
        }
        #expect(Set(outputs) == Set((0..<count).map { "child \($0)\n" }))
    }

    @Test("standard output and standard error apart, and both drained while the child writes more than a pipe holds")
    func outputAndErrorApart() async throws {
        let script = #"head -c 200000 /dev/zero | tr '\0' o; head -c 200000 /dev/zero | tr '\0' e >&2; exit 3"#
        let outcome = try await ChildProcess.run("/bin/sh", ["-c", script], mergingError: false)
        #expect(outcome.status == 3)
        #expect(outcome.output.count == 200_000 && outcome.output.allSatisfy { $0 == "o" })
        #expect(outcome.error.count == 200_000 && outcome.error.allSatisfy { $0 == "e" })
    }

    #if os(Linux)
        @Test("a child starts with no signal blocked, though the pool's threads block nearly all; the starting thread keeps its mask")
        func childrenStartWithNoSignalBlocked() async throws {
            // Started from a pool thread (libdispatch's worker, which blocks SIGALRM, SIGTERM, SIGINT, …) with its mask,
            // `timeout` could not end what it runs and a child would not end on SIGTERM.
            let status = try await ChildProcess.run("/bin/cat", ["/proc/self/status"]).output
            let blocked = try #require(status.split(separator: "\n").first { $0.hasPrefix("SigBlk:") })
            #expect(blocked.split(separator: "\t").last == "0000000000000000", "\(blocked)")

            // On one thread, with no suspension in between: its mask before and after a start.
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/true")
            var before = sigset_t()
            var after = sigset_t()
            pthread_sigmask(SIG_SETMASK, nil, &before)
            try ChildProcess.start(process)
            pthread_sigmask(SIG_SETMASK, nil, &after)
            #expect(withUnsafeBytes(of: &before) { Array($0) } == withUnsafeBytes(of: &after) { Array($0) })
            #expect(await ChildProcess.exitStatus(of: process) == 0)
        }
    #endif

    @Test("more blocking reads at once than the pool has threads, each through onOwnThread and answered by a task of this process")
    func blockingReadsOnTheirOwnThreads() async throws {
        // With the reads on the pool's threads, the pool's width of them would block it and the task that writes
        // would never run: each read gives up after 60 s, empty, and the expectations fail.
        let count = max(4, 2 * ProcessInfo.processInfo.activeProcessorCount)
        let pipes = (0..<count).map { _ in Pipe() }
        let arrivals = Arrivals(expected: count)
        let reads = await withTaskGroup(of: (Int, String).self) { group in
            for (index, pipe) in pipes.enumerated() {
                let fd = pipe.fileHandleForReading.fileDescriptor
                group.addTask {
                    arrivals.arrive()
                    let text = await onOwnThread { () -> String in
                        var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                        guard poll(&ready, 1, 60_000) == 1 else { return "" }
                        var buffer = [UInt8](repeating: 0, count: 64)
                        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                        return String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self)
                    }
                    return (index, text)
                }
            }
            group.addTask {
                // Every read has begun (the tasks are in this process: an explicit signal, no polling).
                await arrivals.all()
                for (index, pipe) in pipes.enumerated() { pipe.fileHandleForWriting.write(Data("answer \(index)".utf8)) }
                return (-1, "")
            }
            return await group.reduce(into: [Int: String]()) { $0[$1.0] = $1.1 }
        }
        for index in pipes.indices { #expect(reads[index] == "answer \(index)") }
    }
}

/// Counts the tasks that began; ``all()`` returns once `expected` of them did.
private final class Arrivals: Sendable {
    private let state = Mutex((count: 0, waiter: CheckedContinuation<Void, Never>?.none))
    private let expected: Int

    init(expected: Int) { self.expected = expected }

    func arrive() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.count += 1
            guard state.count == expected else { return nil }
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    func all() async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if state.count >= expected { return true }
                state.waiter = waiter
                return false
            }
            if ready { waiter.resume() }
        }
    }
}
