import ArgumentParser
import FlintCore
import FlintServer
import FlintStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `flint restore SRC --data DIR`: a backup of `flint backup` put into a new or empty data directory (never over a
/// store), then checked before it is called restored: SQLite's `integrity_check`, a schema version this build can
/// run (an older one is migrated), and `flint doctor`'s checks, among them that the master key given opens the
/// server secret and every signing key. A backup holds no master key, so one is always needed when the store's
/// secrets are sealed (`--master-key-file` or `FLINT_MASTER_KEY`). Whatever fails, the directory is left as it was
/// found.
struct Restore: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Restore a `flint backup` file into an empty data directory and check it.")
    @OptionGroup var store: StoreOptions
    @Argument(help: "The backup file (`flint backup`'s, encrypted or not).") var source: String
    @Option(help: "Project ID to check tokens against.") var project: String = FlintEnvironment.string("project") ?? "demo-flint"

    func run() async throws {
        guard store.databaseURL == nil else {
            throw ValidationError(
                "flint restore fills a SQLite data directory; restore PostgreSQL with pg_restore or psql (docs/operations.md, \"Backups\")")
        }
        let kind = try BackupFile.kind(of: source)
        let directory = store.data
        let created = try prepareEmptyDirectory(directory)
        do {
            try await restore(kind)
        } catch {
            for suffix in ["", "-wal", "-shm", "-journal"] { unlink(store.databasePath + suffix) }
            if created { rmdir(directory) }
            if let exit = error as? ExitCode { throw exit }
            throw RestoreFailed(description: "restore failed, \(directory) is left empty: \(error)")
        }
    }

    private func restore(_ kind: BackupFile.Kind) async throws {
        let target = store.databasePath
        let masterKey = try store.explicitMasterKey()
        switch kind {
        case .database:
            try BackupFile.copy(source, to: target)
        case .encrypted(let id):
            guard let masterKey else {
                throw MasterKeyMissing(
                    description: "\(source) is encrypted with master key \(id): give it with --master-key-file or FLINT_MASTER_KEY")
            }
            try BackupFile.open(source, to: target, with: masterKey.key)
        }
        let problems = try await SQLiteBackup.integrityProblems(databaseAt: target)
        guard problems.isEmpty else {
            throw RestoreFailed(description: "the database fails SQLite's integrity check: \(problems.prefix(5).joined(separator: "; "))")
        }
        let version = try await SQLiteBackup.schemaVersion(databaseAt: target)
        guard version <= StoreSchema.latestVersion else {
            throw RestoreFailed(
                description:
                    "the backup is of schema version \(version), newer than this build's \(StoreSchema.latestVersion): restore it with the Flint that made it"
            )
        }
        print("ok   \(source) is a sound SQLite database of schema version \(version)")
        let db = try await store.open(logger: quietLogger())
        var checks = StoreChecks(projectID: project)
        do {
            try await checks.run(on: db, masterKey: masterKey)
            try await db.close()
        } catch {
            try? await db.close()
            throw error
        }
        guard checks.problems == 0 else {
            let advice = masterKey == nil ? " (no master key was given: --master-key-file or FLINT_MASTER_KEY)" : ""
            throw RestoreFailed(description: "\(checks.problems) check(s) failed on the restored store\(advice)")
        }
        print("restored \(source) into \(store.data): start `flint serve --data \(store.data)` with the same master key")
    }

    /// Makes `directory` (0700) when it does not exist; refuses one that holds anything.
    /// - Returns: whether it was created here.
    private func prepareEmptyDirectory(_ directory: String) throws -> Bool {
        if FileManager.default.fileExists(atPath: directory) {
            let entries: [String]
            do { entries = try FileManager.default.contentsOfDirectory(atPath: directory) } catch {
                throw ValidationError("\(directory) is not a data directory that can be read: \(error)")
            }
            guard entries.isEmpty else {
                throw ValidationError("\(directory) is not empty (\(entries.count) entries): flint restore only fills a new or empty data directory")
            }
            return false
        }
        createPrivateFilesOnly()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return true
    }
}

/// Why a restore stopped, printed as one line (no usage text), exit status 1.
struct RestoreFailed: Error, CustomStringConvertible {
    let description: String
}
