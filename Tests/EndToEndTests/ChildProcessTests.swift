import FlintTesting
import Foundation
import Testing

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
}
