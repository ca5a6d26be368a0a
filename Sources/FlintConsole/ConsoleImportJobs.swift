import FlintCore
import FlintServer
import Synchronization

/// The console's user imports on this node: each uploaded file is imported in the background by ``ImportRun`` (the
/// code `flint users import` runs), and its page reads the job's progress here. One import runs at a time per node;
/// the last ``kept`` jobs are kept in memory (a restart forgets them; the audit log keeps each import's outcome).
final class ConsoleImportJobs: Sendable {
    /// One import.
    struct Job: Sendable {
        let id: String
        let operatorEmail: String
        let fileName: String
        let format: ExportFormat
        /// The file's size in bytes.
        let size: Int
        let started: Instant
        /// Bytes read so far.
        var offset = 0
        var summary: ImportSummary
        var finished: Instant?
        /// What stopped the import, when something other than the file did (a store error).
        var error: String?

        var running: Bool { finished == nil }
    }

    /// Jobs kept for their pages.
    static let kept = 20

    /// The most an upload may hold, in bytes.
    let uploadLimit: Int
    /// Where uploads are kept while they are imported.
    let directory: String
    private let jobs = Mutex<[Job]>([])

    init(uploadLimit: Int, directory: String) { (self.uploadLimit, self.directory) = (uploadLimit, directory) }

    /// Adds a running job, unless one is running already: then `false`.
    func start(_ job: Job) -> Bool {
        jobs.withLock { jobs in
            guard !jobs.contains(where: \.running) else { return false }
            jobs.append(job)
            if jobs.count > Self.kept { jobs.removeFirst(jobs.count - Self.kept) }
            return true
        }
    }

    /// Notes a job's progress.
    func update(_ id: String, summary: ImportSummary, offset: Int) {
        jobs.withLock { jobs in
            guard let i = jobs.firstIndex(where: { $0.id == id }) else { return }
            (jobs[i].summary, jobs[i].offset) = (summary, offset)
        }
    }

    /// Marks a job finished at `at`, with its summary and what stopped it, if anything.
    func finish(_ id: String, summary: ImportSummary, error: String?, at: Instant) {
        jobs.withLock { jobs in
            guard let i = jobs.firstIndex(where: { $0.id == id }) else { return }
            (jobs[i].summary, jobs[i].error, jobs[i].finished) = (summary, error, at)
        }
    }

    /// The job `id`.
    func job(_ id: String) -> Job? { jobs.withLock { $0.first { $0.id == id } } }

    /// The jobs kept, newest first.
    var recent: [Job] { jobs.withLock { Array($0.reversed()) } }
}
