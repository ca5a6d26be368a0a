import ArgumentParser
import FlintCore
import FlintServer
import FlintStore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `flint users import FILE [--tenant T]`: loads what `firebase auth:export` wrote straight into the store (the
/// project's users, or tenant `T`'s).
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
    @OptionGroup var tenant: TenantOption

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
        try await store.withStore(sqliteCacheMiB: 64, mappingErrors: tenantError) { db in
            try await TenantAdmin.run(inTenant: tenant.tenant, of: db) {
                try await importFile(into: db, format: format, algorithm: algorithm, summary: &summary, progress: &progress)
            }
        }
        progress.finish()
        summary.seconds = (progress.elapsed * 1000).rounded() / 1000
        summary.usersPerSecond = Int(Double(summary.imported + summary.skipped) / max(progress.elapsed, 0.001))
        print(json ? try summary.json() : summary.line)
        if let stopped = summary.stoppedAt {
            throw ImportCommandError("\(file): \(stopped); the users before it were imported: fix the file and run again with --resume")
        }
    }

    /// Imports the file into `db`'s tenant in progress (``TenantScope``), counting in `summary` and showing `progress`.
    private func importFile(
        into db: any AuthStore, format: ExportFormat, algorithm: ImportedHashAlgorithm?, summary: inout ImportSummary, progress: inout ProgressLine
    ) async throws {
        let run = ImportRun(
            importer: UserImporter(store: db, actor: "cli"), algorithm: algorithm, batchSize: batchSize,
            existing: resume ? .skip : allowOverwrite ? .overwrite : .refuse, writers: store.databaseURL == nil ? 1 : 2,
            onFailure: { failure in
                let id = failure.localId.map { ", localId \"\($0)\"" } ?? ""
                printError("user \(failure.index) (line \(failure.line)\(id)): \(failure.message)")
            })
        try await run.file(file, format: format, summary: &summary) { summary, offset, last in
            progress.update(done: summary.imported, progress: offset, detail: "\(summary.failed) failed", force: last)
        }
    }
}

/// A `--tenant` naming no tenant, in the command's words.
func tenantError(_ error: any Error) -> any Error {
    guard let error = error as? AuthError, error == .tenantNotFound else { return error }
    guard let id = error.detail else { return ValidationError("no tenant has this ID (flint tenants list shows them)") }
    return ValidationError("no tenant has the ID \(id) (flint tenants list shows them)")
}
