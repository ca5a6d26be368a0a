package import FlintCore

/// A reader of an export file's users, one at a time.
package protocol ExportRecordSource: ~Copyable {
    /// The next user, or `nil` after the last.
    mutating func next() throws(ExportFileError) -> ExportRecord?
    /// Bytes read so far.
    var offset: Int { get }
}

extension ExportJSONReader: ExportRecordSource {}
extension ExportCSVReader: ExportRecordSource {}

/// One import of a `firebase auth:export` file's users, as `flint users import` and the console's import run it:
/// reads a batch while the previous one is being written by ``UserImporter``.
package struct ImportRun: Sendable {
    let importer: UserImporter
    let algorithm: ImportedHashAlgorithm?
    let batchSize: Int
    let existing: UserImporter.Existing
    /// Batches written at once while the next is read: one on SQLite (one writer), two on PostgreSQL (a clash between
    /// them is caught by the unique indexes and the losing batch runs again).
    let writers: Int
    /// Told each refused user as it is found (the CLI prints it).
    let onFailure: @Sendable (ImportFailure) -> Void

    /// A run writing through `importer`, checking password hashes with `algorithm` (users with a hash are refused
    /// without one).
    package init(
        importer: UserImporter, algorithm: ImportedHashAlgorithm?, batchSize: Int, existing: UserImporter.Existing, writers: Int,
        onFailure: @escaping @Sendable (ImportFailure) -> Void = { _ in }
    ) {
        (self.importer, self.algorithm, self.batchSize, self.existing, self.writers) = (importer, algorithm, batchSize, existing, writers)
        self.onFailure = onFailure
    }

    /// Where each user of a batch is in the file, for its failure.
    typealias Places = [Int: (line: Int, localID: String?)]

    /// The progress of a run: the summary and the bytes read after each batch (and `true` after the last).
    package typealias Progress = (_ summary: ImportSummary, _ offset: Int, _ last: Bool) async throws -> Void

    /// Imports every user `source` reads, counting them in `summary`; `progress` is told the summary and the bytes
    /// read after each batch (and `true` after the last). A cancelled task stops before its next batch, once the
    /// batches being written are counted.
    /// - Throws: the ``ExportFileError`` that broke the file off, after the users read before it are written;
    ///   `CancellationError`; a store's error, or `progress`'s.
    package func records<Source: ExportRecordSource & ~Copyable>(
        from source: inout Source, summary: inout ImportSummary, progress: Progress
    ) async throws {
        var pending: [(task: Task<ImportBatchOutcome, any Error>, places: Places)] = []
        defer { for batch in pending { batch.task.cancel() } }
        var ended = false
        while !ended {
            if Task.isCancelled {
                while !pending.isEmpty { try await finish(pending.removeFirst(), summary: &summary) }
                throw CancellationError()
            }
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
            try await progress(summary, source.offset, false)
        }
        while !pending.isEmpty { try await finish(pending.removeFirst(), summary: &summary) }
        try await progress(summary, source.offset, true)
    }

    /// Imports the file at `path` in `format`: ``records(from:summary:progress:)`` over its reader. A file that breaks
    /// off is noted in the summary's `stoppedAt`, not thrown.
    package func file(_ path: String, format: ExportFormat, summary: inout ImportSummary, progress: Progress) async throws {
        do {
            switch format {
            case .json:
                var reader = try ExportJSONReader(path: path)
                try await records(from: &reader, summary: &summary, progress: progress)
            case .csv:
                var reader = try ExportCSVReader(path: path)
                try await records(from: &reader, summary: &summary, progress: progress)
            }
        } catch let error as ExportFileError {
            summary.stoppedAt = error.description
        }
        summary.failures.sort { $0.index < $1.index }
    }

    /// Checks one record; a good user joins the batch, a bad one is reported.
    private func read(
        _ record: ExportRecord, parser: UserImportParser, into candidates: inout [ImportCandidate], places: inout Places,
        summary: inout ImportSummary
    ) {
        switch record.fields {
        case .failure(let error):
            fail(ImportFailure(index: record.index, line: record.line, message: error.reason), &summary)
        case .success(var fields):
            // The export's name for the last sign-in, as firebase auth:import renames it.
            if let last = fields.removeValue(forKey: "lastSignedInAt"), fields["lastLoginAt"] == nil { fields["lastLoginAt"] = last }
            let localID = fields["localId"]?.stringValue
            switch parser.candidate(fields, index: record.index, path: "users[\(record.index)]") {
            case .success(let candidate):
                candidates.append(candidate)
                places[record.index] = (record.line, localID)
            case .failure(let refusal):
                fail(ImportFailure(index: record.index, line: record.line, localId: localID, message: refusal.message), &summary)
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
            fail(ImportFailure(index: failure.index, line: place?.line ?? 0, localId: place?.localID, message: failure.message), &summary)
        }
    }

    private func fail(_ failure: ImportFailure, _ summary: inout ImportSummary) {
        summary.fail(failure)
        onFailure(failure)
    }
}
