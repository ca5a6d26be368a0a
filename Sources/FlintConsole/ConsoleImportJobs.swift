import FlintCore
import FlintServer
import FlintStore
import Synchronization

/// The console's user imports. Each uploaded file is imported in the background by ``ImportRun`` (the code `flint users
/// import` runs); its job lives in the store (``ImportJobRecord``, migration 26), so every node sharing the store shows
/// its page and lists it. Its counts, offset and refused rows are written once per batch of users, which is also its
/// heartbeat. One import runs at a time per node. At the node's graceful shutdown (``stop()``) the running import ends
/// after the batches being written and is marked interrupted; a job whose node crashed stops moving its heartbeat, is
/// shown interrupted once it is ``staleAfter`` old, and the sweep marks it so. Jobs are pruned ``retention`` after
/// their start.
final class ConsoleImportJobs: Sendable {
    /// Jobs the import page lists.
    static let listed = 20
    /// How long a running job's heartbeat may stand still before the job counts as interrupted: far longer than one
    /// batch takes.
    static let staleAfter: Duration = .seconds(5 * 60)
    /// How long a job is kept after its start.
    static let retention: Duration = .seconds(30 * 24 * 3600)

    /// The most an upload may hold, in bytes.
    let uploadLimit: Int
    /// Where uploads are kept while they are imported.
    let directory: String

    /// This node's import slot.
    private enum Slot {
        case free, reserved
        case running(Task<Void, Never>)
    }
    private let slot = Mutex<Slot>(.free)

    init(uploadLimit: Int, directory: String) { (self.uploadLimit, self.directory) = (uploadLimit, directory) }

    /// Takes this node's import slot: `false` when an import holds it.
    func reserve() -> Bool {
        slot.withLock { slot in
            guard case .free = slot else { return false }
            slot = .reserved
            return true
        }
    }

    /// Gives a reserved slot back unused.
    func release() { slot.withLock { $0 = .free } }

    /// Runs `work` in the background in the reserved slot, which it gives back when it ends.
    func launch(_ work: @escaping @Sendable () async -> Void) {
        slot.withLock { slot in
            slot = .running(
                Task {
                    await work()
                    self.release()
                })
        }
    }

    /// Stops this node's running import, if any, and waits for it to record its end (the node's graceful shutdown).
    func stop() async {
        let task: Task<Void, Never>? = slot.withLock { slot in
            guard case .running(let task) = slot else { return nil }
            return task
        }
        task?.cancel()
        await task?.value
    }

    /// Whether a job's node gave it up: the import was stopped, or its job is no longer running in the store.
    struct Interrupted: Error {}

    /// The job's record after `summary` at `offset` bytes, noted at `now` (its heartbeat), with `status`.
    static func record(
        _ job: ImportJobRecord, _ summary: ImportSummary, offset: Int, status: ImportJobStatus = .running, error: String? = nil, at now: Instant
    ) -> ImportJobRecord {
        var job = job
        (job.offset, job.status, job.heartbeatAt) = (Int64(min(offset, Int(job.size))), status, now)
        (job.read, job.imported, job.skipped, job.failed) = (
            Int64(summary.read), Int64(summary.imported), Int64(summary.skipped), Int64(summary.failed)
        )
        var report: [String: JSONValue] = [
            "failures": .array(
                summary.failures.map { f in
                    var row: [String: JSONValue] = [
                        "index": .number(Double(f.index)), "line": .number(Double(f.line)), "message": .string(f.message),
                    ]
                    row["localId"] = f.localId.map(JSONValue.string)
                    return .object(row)
                })
        ]
        if summary.failuresNotListed > 0 { report["notListed"] = .number(Double(summary.failuresNotListed)) }
        report["stoppedAt"] = summary.stoppedAt.map(JSONValue.string)
        report["error"] = error.map(JSONValue.string)
        job.report = .object(report)
        if status != .running { job.finishedAt = now }
        return job
    }

    /// A job's page data at `now`: progress while it runs, the report when it ended.
    static func data(_ job: ImportJobRecord, now: Instant) -> [String: Any] {
        let status = job.status(staleBefore: now - staleAfter)
        let (size, offset) = (Int(job.size), Int(min(job.offset, job.size)))
        var data: [String: Any] = [
            "id": job.id, "file": job.fileName, "format": job.format, "operator": job.operatorEmail, "running": status == .running,
            "status": status.rawValue, "interrupted": status == .interrupted, "started": RFC3339.format(job.startedAt), "size": size,
            "offset": offset, "percent": size > 0 ? offset * 100 / size : 100, "read": job.read, "imported": job.imported,
            "skipped": job.skipped, "failed": job.failed,
        ]
        let failures: [[String: Any]] = (job.report["failures"]?.arrayValue ?? []).map { f in
            [
                "row": integer(f["index"]) + 1, "line": integer(f["line"]), "localId": f["localId"]?.stringValue ?? "",
                "message": f["message"]?.stringValue ?? "",
            ]
        }
        (data["failures"], data["hasFailures"]) = (failures, !failures.isEmpty)
        if case let notListed = integer(job.report["notListed"]), notListed > 0 { data["notListed"] = notListed }
        if let stopped = job.report["stoppedAt"]?.stringValue { data["stoppedAt"] = stopped }
        if let error = job.report["error"]?.stringValue { data["error"] = error }
        if status == .interrupted { data["lastProgress"] = RFC3339.format(job.finishedAt ?? job.heartbeatAt) }
        if status != .running, let finished = job.finishedAt { data["finished"] = RFC3339.format(finished) }
        return data
    }

    /// A report's whole number (0 when it has none).
    private static func integer(_ value: JSONValue?) -> Int {
        guard case .number(let n)? = value else { return 0 }
        return Int(n)
    }
}
