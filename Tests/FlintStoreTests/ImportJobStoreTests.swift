import FlintCore
import FlintStore
import FlintTesting
import Testing

@Suite("Console import jobs: kept in the store, progress only while running, interrupted when silent, pruned")
struct ImportJobStoreTests {
    static func job(_ id: String, startedAt: Instant) -> ImportJobRecord {
        ImportJobRecord(id: id, operatorEmail: "ops@example.com", fileName: "\(id).json", format: "json", size: 1000, startedAt: startedAt)
    }

    @Test("a job is stored whole, read by its ID and listed newest first; its progress and end are written while it runs", arguments: Engine.all)
    func progress(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        try await store.write { tx in
            for (id, start) in [("old", 1_000), ("mid", 2_000), ("new", 3_000)] as [(String, Instant)] {
                try await tx.insertImportJob(Self.job(id, startedAt: start))
            }
        }
        #expect(try await store.read { try await $0.importJob(id: "mid") } == Self.job("mid", startedAt: 2_000))
        #expect(try await store.read { try await $0.importJob(id: "none") } == nil)
        #expect(try await store.read { try await $0.importJobs(tenant: .default, limit: 2) }.map(\.id) == ["new", "mid"])

        var moved = Self.job("mid", startedAt: 2_000)
        (moved.offset, moved.read, moved.imported, moved.skipped, moved.failed, moved.heartbeatAt) = (400, 7, 5, 1, 1, 2_500)
        moved.report = ["failures": [["index": .number(3), "line": .number(4), "message": "INVALID_EMAIL"]]]
        let movedWritten = try await store.write { [moved] in try await $0.updateImportJob(moved) }
        #expect(movedWritten)
        #expect(try await store.read { try await $0.importJob(id: "mid") } == moved)

        var ended = moved
        (ended.status, ended.offset, ended.finishedAt, ended.heartbeatAt) = (.done, 1000, 2_600, 2_600)
        let endWritten = try await store.write { [ended] in try await $0.updateImportJob(ended) }
        #expect(endWritten)
        #expect(try await store.read { try await $0.importJob(id: "mid") } == ended)
        var late = ended
        late.status = .failed
        let lateWritten = try await store.write { [late] in try await $0.updateImportJob(late) }
        #expect(!lateWritten, "an ended job stays as it ended")
        #expect(try await store.read { try await $0.importJob(id: "mid") }?.status == .done)
        try await store.close()
    }

    @Test("running jobs silent since before the cutoff are interrupted at their last progress; ended ones are pruned by start", arguments: Engine.all)
    func interruptAndPrune(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        var silent = Self.job("silent", startedAt: 1_000)
        silent.heartbeatAt = 5_000
        var alive = Self.job("alive", startedAt: 1_000)
        alive.heartbeatAt = 9_000
        try await store.write { [silent, alive] tx in
            try await tx.insertImportJob(silent)
            try await tx.insertImportJob(alive)
        }
        #expect(silent.status(staleBefore: 6_000) == .interrupted && alive.status(staleBefore: 6_000) == .running)
        #expect(try await store.write { try await $0.interruptImportJobs(heartbeatBefore: 6_000) } == 1)
        let interrupted = try #require(try await store.read { try await $0.importJob(id: "silent") })
        #expect(interrupted.status == .interrupted && interrupted.finishedAt == 5_000)
        let silentWritten = try await store.write { [silent] in try await $0.updateImportJob(silent) }
        #expect(!silentWritten, "a job marked interrupted stays so")
        #expect(try await store.read { try await $0.importJob(id: "alive") }?.status == .running)

        #expect(try await store.write { try await $0.deleteImportJobs(startedBefore: 2_000) } == 1, "a running job is kept")
        #expect(try await store.read { try await $0.importJobs(tenant: .default, limit: 10) }.map(\.id) == ["alive"])
        try await store.close()
    }
}
