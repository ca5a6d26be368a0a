import FlintCore
import FlintServerTestSupport
import FlintStore
import FlintTesting
import Foundation
import HTTPTypes
import Testing

@testable import FlintConsole
@testable import FlintServer

@Suite("The console's import jobs: in the store, shown by every node, interrupted when their node stops")
struct ConsoleImportJobsTests {
    /// One of two nodes serving the console on one store.
    struct Member: Sendable {
        let node: TestNode
        let module: ConsoleModule
        let api: API
    }

    /// Two nodes serving the console on one database file, with one clock and one log of writes, and an operator
    /// signed in on the first (its session, kept in the store, works on both), for `body`.
    private func withTwoNodes(_ body: @escaping @Sendable (Member, Member, ConsoleOperator) async throws -> Void) async throws {
        let path = temporaryDatabasePath()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let (clock, writes) = (ManualClock(Instant(Date())), EventLog<Void>())
        let modules = (ConsoleModule(), ConsoleModule())
        let first = try await TestNode.make(path: path, clock: clock, modules: [modules.0], writes: writes)
        let second = try await TestNode.make(path: path, clock: clock, modules: [modules.1], writes: writes)
        try await first.run { a in
            let op = try await a.addOperator("ops@example.com", password: consoleTestPassword, store: first.store)
            let signedIn = try await a.consoleSignIn(op, password: consoleTestPassword)
            try await second.run { b in
                try await body(Member(node: first, module: modules.0, api: a), Member(node: second, module: modules.1, api: b), signedIn)
            }
        }
    }

    /// A job as the import form starts it, in the store.
    private func insertJob(_ member: Member, _ id: String, startedAt: Instant, status: ImportJobStatus = .running) async throws -> ImportJobRecord {
        var job = ImportJobRecord(
            id: id, operatorEmail: "ops@example.com", fileName: "\(id).json", format: "json", size: 100, status: status, startedAt: startedAt)
        if status != .running { job.finishedAt = startedAt }
        try await member.node.store.write { [job] in try await $0.insertImportJob(job) }
        return job
    }

    @Test("an import sent to one node is followed to its report on the other, and listed by both")
    func anyNodeServesTheJob() async throws {
        try await withTwoNodes { first, second, op in
            let body = ConsoleTransfersTests.multipart(["csrf": op.csrf], file: ("users.json", ConsoleTransfersTests.users))
            let sent = try await first.api.call(
                .post, "/console/import", body: body, contentType: "multipart/form-data; boundary=\(ConsoleTransfersTests.boundary)",
                headers: [.cookie: op.cookie])
            let location = try #require(sent.headers[.location], "\(sent.text)")
            var page = ""
            let done = try await first.node.afterWrites {
                page = try await second.api.console(.get, location, cookie: op.cookie).text
                return page.contains(#"id="import-done""#)
            }
            #expect(done && page.contains("Imported 2 of 4 users (0 already present, 2 refused)."), "\(page)")
            #expect(page.contains(#"<td data-label="Row">2</td><td data-label="Line">3</td><td data-label="User ID">u2</td>"#), "refused rows")
            for member in [first, second] {
                let list = try await member.api.console(.get, "/console/import", cookie: op.cookie)
                #expect(list.text.contains(#"<a href="\#(location)">users.json</a>"#) && list.text.contains(">done</td>"), "\(list.text)")
            }
            let job = try #require(try await second.node.store.read { try await $0.importJob(id: String(location.split(separator: "/").last ?? "")) })
            #expect(job.status == .done && job.read == 4 && job.imported == 2 && job.failed == 2 && job.finishedAt != nil)
        }
    }

    @Test("a node's shutdown stops its import after the batch being written and marks it interrupted, as every node then shows")
    func shutdown() async throws {
        try await withTwoNodes { first, second, op in
            let job = try await insertJob(first, "stopping", startedAt: first.node.clock.now())
            let (gate, hold) = AsyncStream<Void>.makeStream()
            #expect(first.module.imports.reserve())
            #expect(!first.module.imports.reserve(), "one import at a time per node")
            let node = first.node.server.flows.node
            first.module.imports.launch {
                await ConsoleRoutes.follow(job, node: node, origin: AuditOrigin(actor: "ops@example.com")) { summary, progress in
                    // One batch written, then the file is still being read when the node stops.
                    (summary.read, summary.imported) = (3, 3)
                    try await progress(summary, 30, false)
                    for await _ in gate {}
                    hold.finish()
                    throw CancellationError()
                }
            }
            var page = ""
            let running = try await first.node.afterWrites {
                page = try await second.api.console(.get, "/console/import/stopping", cookie: op.cookie).text
                return page.contains("3 users read")
            }
            #expect(running && page.contains("data-running"), "\(page)")
            await first.module.shutdown()
            page = try await second.api.console(.get, "/console/import/stopping", cookie: op.cookie).text
            #expect(page.contains(#"id="import-interrupted""#) && page.contains("its node stopped after 3 users (3 imported"), "\(page)")
            #expect(!page.contains("data-running"), "the page's script stops following it")
            #expect(try await second.node.store.read { try await $0.importJob(id: "stopping") }?.status == .interrupted)
            let ended = try await first.api.auditEvents("kind=ADMIN_ACTION").compactMap { $0["detail"] }
            #expect(ended.contains { $0["action"] == "importFinished" && $0["status"] == "interrupted" && $0["imported"] == .number(3) })
            #expect(first.module.imports.reserve(), "the slot is free again")
        }
    }

    @Test("a job whose node went silent is shown interrupted after a while, and the sweep marks it; old jobs are pruned")
    func crashAndPrune() async throws {
        try await withTwoNodes { first, second, op in
            let now = first.node.clock.now()
            _ = try await insertJob(first, "crashed", startedAt: now)
            _ = try await insertJob(first, "ancient", startedAt: now - ConsoleImportJobs.retention - .seconds(60), status: .done)
            let fresh = try await second.api.console(.get, "/console/import/crashed", cookie: op.cookie)
            #expect(fresh.text.contains("data-running"), "a job with a recent heartbeat is running")

            first.node.clock.advance(by: ConsoleImportJobs.staleAfter + .seconds(1))
            let page = try await second.api.console(.get, "/console/import/crashed", cookie: op.cookie)
            #expect(page.text.contains(#"id="import-interrupted""#) && !page.text.contains("data-running"), "\(page.text)")
            let list = try await second.api.console(.get, "/console/import", cookie: op.cookie)
            #expect(list.text.contains(">interrupted</td>"), "\(list.text)")

            try await second.node.store.write { tx in try await second.module.sweep(tx, now: second.node.clock.now()) }
            let swept = try #require(try await first.node.store.read { try await $0.importJob(id: "crashed") })
            #expect(swept.status == .interrupted && swept.finishedAt == now)
            #expect(try await first.node.store.read { try await $0.importJob(id: "ancient") } == nil, "pruned after its retention")
            let gone = try await second.api.console(.get, "/console/import/ancient", cookie: op.cookie)
            #expect(gone.status == .notFound && gone.text.contains("kept 30 days"))
        }
    }
}
