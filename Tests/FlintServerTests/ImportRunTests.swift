import FlintCore
import FlintStore
import FlintTesting
import Logging
import Testing

@testable import FlintServer

@Suite("Import: a run of an export file's users")
struct ImportRunTests {
    /// Users `u0`, `u1`, … that cancel the reading task as user `cancelAt` is read (a node's shutdown mid-file).
    struct CancellingSource: ExportRecordSource {
        let count: Int
        let cancelAt: Int
        var index = 0
        var offset: Int { index * 10 }

        mutating func next() throws(ExportFileError) -> ExportRecord? {
            guard index < count else { return nil }
            if index == cancelAt { withUnsafeCurrentTask { $0?.cancel() } }
            defer { index += 1 }
            return ExportRecord(fields: .success(["localId": .string("u\(index)")]), index: index, line: index + 1)
        }
    }

    @Test("a cancelled run stops before its next batch, once the batches it read are written and counted")
    func cancelled() async throws {
        let store = try await SQLiteStore(path: nil, replayingWrites: true, logger: Logger(label: "flint-test"))
        let run = ImportRun(importer: UserImporter(store: store), algorithm: nil, batchSize: 2, existing: .refuse, writers: 1)
        // In a task of its own: the cancellation is the run's, not the test's.
        let (cancelled, summary, progress) = await Task {
            var source = CancellingSource(count: 10, cancelAt: 3)
            var summary = ImportSummary(file: "users.json", format: "json")
            var progress: [Int] = []
            do {
                try await run.records(from: &source, summary: &summary) { summary, _, _ in progress.append(summary.read) }
                return (false, summary, progress)
            } catch {
                return (error is CancellationError, summary, progress)
            }
        }.value
        #expect(cancelled, "the run ends with CancellationError")
        #expect(summary.read == 4 && summary.imported == 4 && progress == [2, 4], "\(summary) \(progress)")
        let stored = try await store.read { try await $0.exportPage(tenant: .default, after: nil, limit: 20) }.map(\.user.localID)
        #expect(stored == ["u0", "u1", "u2", "u3"])
        try await store.close()
    }
}
