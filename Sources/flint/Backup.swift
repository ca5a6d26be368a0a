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

/// `flint backup DEST`: a consistent copy of the SQLite store, taken while nodes serve it (``SQLiteBackup``: one
/// read transaction, which no writer waits for), written whole or not at all: made under a temporary name beside
/// DEST, flushed to disk, then renamed. With `--encrypt`, sealed with the master key (``SealedBackup``). The master
/// key itself is never put in a backup: a restore needs it given again. PostgreSQL is backed up with its own tools
/// (docs/operations.md, "Backups").
struct Backup: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Copy the SQLite store into a new file while nodes serve it; restore it with `flint restore`.")
    @OptionGroup var store: StoreOptions
    @Argument(help: "The backup file to create (it must not exist).") var destination: String
    @Flag(help: "Encrypt the backup with the master key (--master-key-file, FLINT_MASTER_KEY or DATA/master.key).")
    var encrypt = false

    func run() async throws {
        guard store.databaseURL == nil else {
            throw ValidationError(
                "flint backup copies a SQLite store; back up PostgreSQL with pg_dump or pg_basebackup (docs/operations.md, \"Backups\"), then check a restore with `flint doctor`"
            )
        }
        let source = store.databasePath
        guard FileManager.default.fileExists(atPath: source) else { throw ValidationError("no database at \(source)") }
        guard !FileManager.default.fileExists(atPath: destination) else {
            throw ValidationError("\(destination) exists: a backup is written to a new file")
        }
        createPrivateFilesOnly()
        let masterKey = try encrypt ? encryptionKey() : nil
        let copy = destination + ".\(getpid()).copy"
        let sealed = destination + ".\(getpid()).sealed"
        defer { for path in [copy, sealed] { unlink(path) } }
        let started = ContinuousClock.now
        try await SQLiteBackup.copy(databaseAt: source, to: copy)
        if let masterKey {
            try await checkSealedWith(masterKey, copy: copy)
            try BackupFile.seal(copy, to: sealed, with: masterKey.key)
            try rename(sealed)
        } else {
            try RawFile.sync(path: copy)
            try rename(copy)
        }
        let elapsed = (ContinuousClock.now - started).components
        let milliseconds = elapsed.seconds * 1000 + elapsed.attoseconds / 1_000_000_000_000_000
        let sealedWith = masterKey.map { ", encrypted with master key \($0.key.id)" } ?? ""
        print("backed up \(source) into \(destination)\(sealedWith) in \(milliseconds) ms")
    }

    /// The master key to seal with: the one given, else the data directory's.
    private func encryptionKey() throws -> StoreOptions.FoundMasterKey {
        if let found = try store.explicitMasterKey() { return found }
        if FileManager.default.fileExists(atPath: store.masterKeyPath) {
            return StoreOptions.FoundMasterKey(
                key: try MasterKeyFile.read(path: store.masterKeyPath), source: "the file \(store.masterKeyPath)",
                dataDirectoryFile: store.masterKeyPath)
        }
        throw MasterKeyMissing(description: "--encrypt needs the master key that seals the store's secrets: \(MasterKeyFile.howTo)")
    }

    /// Refuses to seal a backup with a key other than the one its secrets are sealed with: a restore could open the
    /// file and then not the secrets in it.
    private func checkSealedWith(_ masterKey: StoreOptions.FoundMasterKey, copy: String) async throws {
        let db = try await SQLiteStore(path: copy, readers: 1, logger: quietLogger())
        let status = try await SecretsStatus.read(from: db)
        try await db.close()
        for suffix in ["-wal", "-shm"] { unlink(copy + suffix) }
        if let other = status.sealedByKey.keys.sorted().first(where: { $0 != masterKey.key.id }) {
            throw MasterKeyMissing(description: MasterKeyError.wrongKey(stored: other, given: masterKey.key.id).description)
        }
    }

    /// Moves the finished file to ``destination`` (never over a file that appeared meanwhile) and flushes the
    /// directory entry.
    private func rename(_ finished: String) throws {
        guard link(finished, destination) == 0 else { throw FileError(path: destination, reason: String(cString: strerror(errno))) }
        let directory = destination.contains("/") ? String(destination[..<(destination.lastIndex(of: "/") ?? destination.startIndex)]) : "."
        try RawFile.sync(path: directory.isEmpty ? "/" : directory)
    }
}
