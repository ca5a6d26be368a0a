import ArgumentParser
import FlintCore
import FlintServer
import FlintStore
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `flint users export FILE [--tenant T]`: writes every user (of the project, or of tenant `T`) as `firebase auth:export` does, so that `firebase auth:import` or
/// `flint users import` reads it back.
struct UsersExport: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export users as firebase auth:export writes them (JSON or CSV), password hashes included.",
        discussion: """
            Users are read in pages and written as they come: memory stays bounded. The file holds password hashes \
            and is created readable by its owner only. Each hash keeps its algorithm: imported hashes their own, \
            passwords set in Flint scrypt (STANDARD_SCRYPT); the import flags of each are printed on standard error. \
            Second factors are in the JSON format only (Firebase's CSV has no column for them).
            """
    )

    @Argument(help: "The file to write (.json or .csv).") var file: String
    @OptionGroup var store: StoreOptions
    @Option(help: "json or csv, when the file's name does not say.") var format: String?
    @Flag(help: "Print a JSON summary on standard output.") var json = false
    @OptionGroup var tenant: TenantOption

    /// `flint users export --json`'s summary.
    struct Summary: Encodable {
        struct HashConfiguration: Encodable {
            /// The import flags.
            var flags: String
            var users: Int
        }

        var file: String
        var format: String
        var users = 0
        var seconds = 0.0
        /// The hash algorithms in the file, with the flags that import each.
        var passwordHashes: [HashConfiguration] = []
    }

    func run() async throws {
        let format = try ExportFormat.of(file: file, given: format)
        var summary = Summary(file: file, format: format.rawValue)
        var hashes: [String: Int] = [:]
        var progress = try await store.withStore(mappingErrors: tenantError) { db in
            try await TenantAdmin.run(inTenant: tenant.tenant, of: db) {
                try await write(from: db, format: format, summary: &summary, hashes: &hashes)
            }
        }
        progress.update(done: summary.users, progress: summary.users, force: true)
        progress.finish()
        summary.seconds = (progress.elapsed * 1000).rounded() / 1000
        summary.passwordHashes = hashes.sorted { $0.value > $1.value }.map { Summary.HashConfiguration(flags: $0.key, users: $0.value) }
        for configuration in summary.passwordHashes {
            printError("\(configuration.users) password hashes import with: \(configuration.flags)")
        }
        if summary.passwordHashes.count > 1 {
            printError(
                "warning: the file holds \(summary.passwordHashes.count) hash configurations, but an import applies one to every user: "
                    + "users hashed with another cannot sign in with their password after that import until they reset it")
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(summary), as: UTF8.self))
        } else {
            print("exported \(summary.users) users to \(file) in \(ProgressLine.duration(summary.seconds))")
        }
    }

    /// Writes every account of `db` in the tenant (``TenantScope``) to the file in `format`, a page at a time, counting them in `summary` and their
    /// hash configurations in `hashes`; returns the progress line.
    private func write(
        from db: any AuthStore, format: ExportFormat, summary: inout Summary, hashes: inout [String: Int]
    ) async throws -> ProgressLine {
        let total = try await db.read { try await $0.userCount(tenant: .scoped) }
        let fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { throw FileError(path: file, reason: String(cString: strerror(errno))) }
        let output = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        var progress = ProgressLine(noun: "users", total: total)
        let outcome = try await UserExport(format: format).run(from: db) { text in
            try output.write(contentsOf: Data(text.utf8))
        } written: { users in
            progress.update(done: users, progress: users)
        }
        summary.users = outcome.users
        hashes.merge(outcome.hashes, uniquingKeysWith: +)
        try output.synchronize()
        try output.close()
        return progress
    }
}
