import ArgumentParser
import FlintCore
import FlintServer
import FlintStore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A reader of an export file's users, one at a time.
protocol ExportRecordSource: ~Copyable {
    /// The next user, or `nil` after the last.
    mutating func next() throws(ExportFileError) -> ExportRecord?
    /// Bytes read so far.
    var offset: Int { get }
}

extension ExportJSONReader: ExportRecordSource {}
extension ExportCSVReader: ExportRecordSource {}

/// `flint users import FILE`: loads what `firebase auth:export` wrote straight into the store.
struct UsersImport: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import users from a `firebase auth:export` file (JSON or CSV), with firebase auth:import's hash flags.",
        discussion: """
            The file is streamed: memory stays bounded whatever its size. Users are written in batches, one \
            transaction each; a user is imported whole or not at all, and each refused user is reported on standard \
            error with its position and line. With --resume, users whose localId is already stored are skipped, so \
            an interrupted import can be run again. Firebase's password hash parameters are in the console under \
            Authentication > Users > ⋮ > Password hash parameters.
            """
    )

    @Argument(help: "The file written by firebase auth:export (.json or .csv).") var file: String
    @OptionGroup var hash: ImportHashOptions
    @OptionGroup var store: StoreOptions
    @Option(help: "json or csv, when the file's name does not say.") var format: String?
    @Option(name: .customLong("batch-size"), help: "Users per transaction.") var batchSize = 5000
    @Flag(help: "Skip users whose localId is already stored (to finish an interrupted import).") var resume = false
    @Flag(name: .customLong("allow-overwrite"), help: "Replace stored users with the same localId (ending their sessions).")
    var allowOverwrite = false
    @Flag(help: "Print a JSON summary on standard output.") var json = false

    func validate() throws {
        guard (1...10_000).contains(batchSize) else { throw ValidationError("--batch-size must be between 1 and 10000") }
        guard !(resume && allowOverwrite) else { throw ValidationError("--resume and --allow-overwrite exclude each other") }
    }

    func run() async throws {
        let format = try ExportFormat.of(file: file, given: format)
        let algorithm = try hash.algorithm()
        if algorithm == nil { printError("warning: no --hash-algo: users with a password hash will be refused") }
        let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? nil
        // A large page cache keeps a batch's index pages in memory until its commit (SQLite).
        var summary = ImportSummary(file: file, format: format.rawValue)
        var progress = ProgressLine(noun: "users", total: size)
        try await store.withStore(sqliteCacheMiB: 64) { db in
            let run = ImportRun(
                importer: UserImporter(store: db, actor: "cli"), algorithm: algorithm, batchSize: batchSize,
                existing: resume ? .skip : allowOverwrite ? .overwrite : .refuse, writers: store.databaseURL == nil ? 1 : 2)
            do {
                switch format {
                case .json:
                    var reader = try ExportJSONReader(path: file)
                    try await run.records(from: &reader, summary: &summary, progress: &progress)
                case .csv:
                    var reader = try ExportCSVReader(path: file)
                    try await run.records(from: &reader, summary: &summary, progress: &progress)
                }
            } catch let error as ExportFileError {
                summary.stoppedAt = error.description
            }
        }
        progress.finish()
        summary.failures.sort { $0.index < $1.index }
        summary.seconds = (progress.elapsed * 1000).rounded() / 1000
        summary.usersPerSecond = Int(Double(summary.imported + summary.skipped) / max(progress.elapsed, 0.001))
        print(json ? try summary.json() : summary.line)
        if let stopped = summary.stoppedAt {
            throw ImportCommandError("\(file): \(stopped); the users before it were imported: fix the file and run again with --resume")
        }
    }
}

/// One import's loop: reads a batch while the previous one is being written.
struct ImportRun: Sendable {
    let importer: UserImporter
    let algorithm: ImportedHashAlgorithm?
    let batchSize: Int
    let existing: UserImporter.Existing
    /// Batches written at once while the next is read: one on SQLite (one writer), two on PostgreSQL (a clash between
    /// them is caught by the unique indexes and the losing batch runs again).
    let writers: Int

    /// Where each user of a batch is in the file, for its failure.
    typealias Places = [Int: (line: Int, localID: String?)]

    func records<Source: ExportRecordSource & ~Copyable>(
        from source: inout Source, summary: inout ImportSummary, progress: inout ProgressLine
    ) async throws {
        var pending: [(task: Task<ImportBatchOutcome, any Error>, places: Places)] = []
        defer { for batch in pending { batch.task.cancel() } }
        var ended = false
        while !ended {
            var candidates: [ImportCandidate] = []
            var places: Places = [:]
            let parser = UserImportParser(algorithm: algorithm, now: SystemClock().now())
            // A file that breaks off ends the import after the users read before the break are written.
            var broken: ExportFileError?
            do {
                while candidates.count < batchSize, let record = try source.next() {
                    summary.read += 1
                    read(record, parser: parser, into: &candidates, places: &places, summary: &summary)
                }
            } catch {
                broken = error
            }
            ended = broken != nil || candidates.count < batchSize
            while pending.count >= writers { try await finish(pending.removeFirst(), summary: &summary) }
            if !candidates.isEmpty {
                let batch = candidates
                pending.append((Task { [importer, existing] in try await importer.importBatch(batch, existing: existing) }, places))
            }
            if let broken {
                while !pending.isEmpty { try await finish(pending.removeFirst(), summary: &summary) }
                throw broken
            }
            progress.update(done: summary.imported, progress: source.offset, detail: "\(summary.failed) failed")
        }
        while !pending.isEmpty { try await finish(pending.removeFirst(), summary: &summary) }
        progress.update(done: summary.imported, progress: source.offset, detail: "\(summary.failed) failed", force: true)
    }

    /// Checks one record; a good user joins the batch, a bad one is reported.
    private func read(
        _ record: ExportRecord, parser: UserImportParser, into candidates: inout [ImportCandidate], places: inout Places,
        summary: inout ImportSummary
    ) {
        switch record.fields {
        case .failure(let error):
            summary.fail(ImportFailure(index: record.index, line: record.line, message: error.reason))
        case .success(var fields):
            // The export's name for the last sign-in, as firebase auth:import renames it.
            if let last = fields.removeValue(forKey: "lastSignedInAt"), fields["lastLoginAt"] == nil { fields["lastLoginAt"] = last }
            let localID = fields["localId"]?.stringValue
            switch parser.candidate(fields, index: record.index, path: "users[\(record.index)]") {
            case .success(let candidate):
                candidates.append(candidate)
                places[record.index] = (record.line, localID)
            case .failure(let refusal):
                summary.fail(ImportFailure(index: record.index, line: record.line, localId: localID, message: refusal.message))
            }
        }
    }

    /// Waits for a batch's transaction and counts its outcome.
    private func finish(_ pending: (task: Task<ImportBatchOutcome, any Error>, places: Places), summary: inout ImportSummary) async throws {
        let outcome = try await pending.task.value
        summary.imported += outcome.imported
        summary.skipped += outcome.skipped
        for failure in outcome.failures {
            let place = pending.places[failure.index]
            summary.fail(ImportFailure(index: failure.index, line: place?.line ?? 0, localId: place?.localID, message: failure.message))
        }
    }
}
