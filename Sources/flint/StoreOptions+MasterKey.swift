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

/// Where the master key comes from, for every command that reads or writes the store's secrets: `--master-key-file`
/// (or `FLINT_MASTER_KEY_FILE`), the key itself in `FLINT_MASTER_KEY`, or the data directory's `master.key`, which
/// dev mode (and a command on a SQLite store) creates (0600) so a developer's `flint serve` needs no set-up.
extension StoreOptions {
    /// A master key and where it was found, for people.
    struct FoundMasterKey {
        let key: MasterKey
        let source: String
        /// The data directory's `master.key`, when the key came from there.
        let dataDirectoryFile: String?
    }

    /// The key given by flag or environment, if any.
    /// - Throws: ``MasterKeyMissing`` when the file cannot be read or the text is no key.
    func explicitMasterKey() throws -> FoundMasterKey? {
        if let path = masterKeyFile ?? (env("FLINT_MASTER_KEY") == nil ? env("FLINT_MASTER_KEY_FILE") : nil) {
            return FoundMasterKey(key: try MasterKeyFile.read(path: path), source: "the file \(path)", dataDirectoryFile: nil)
        }
        if let text = env("FLINT_MASTER_KEY") {
            do { return FoundMasterKey(key: try MasterKey(base64: text), source: "FLINT_MASTER_KEY", dataDirectoryFile: nil) } catch {
                throw MasterKeyMissing(description: "FLINT_MASTER_KEY: \(error)")
            }
        }
        return nil
    }

    /// The key for `store`: the one given, else the data directory's `master.key`, created when `create` allows it
    /// and the store holds no sealed secret yet (a fresh store, or one kept in clear by an older Flint).
    /// - Parameters:
    ///   - useDataDirectory: whether the data directory's file may be read (not in production mode).
    /// - Returns: `nil` when there is none and none may be created.
    func masterKey(for store: any AuthStore, useDataDirectory: Bool, create: Bool) async throws -> FoundMasterKey? {
        if let found = try explicitMasterKey() { return found }
        guard useDataDirectory else { return nil }
        let path = masterKeyPath
        if FileManager.default.fileExists(atPath: path) {
            return FoundMasterKey(key: try MasterKeyFile.read(path: path), source: "the file \(path)", dataDirectoryFile: path)
        }
        guard create else { return nil }
        let status = try await SecretsStatus.read(from: store)
        if let sealedWith = status.sealedByKey.keys.sorted().first {
            throw MasterKeyMissing(description: MasterKeyError.wrongKey(stored: sealedWith, given: nil).description)
        }
        return FoundMasterKey(key: try MasterKeyFile.create(path: path), source: "the file \(path) (created)", dataDirectoryFile: path)
    }

    /// The key for a command that needs one: as ``masterKey(for:useDataDirectory:create:)``, creating the data
    /// directory's file only for SQLite (a developer's store).
    /// - Throws: ``MasterKeyMissing`` when there is none.
    func requiredMasterKey(for store: any AuthStore) async throws -> FoundMasterKey {
        if let found = try await masterKey(for: store, useDataDirectory: true, create: databaseURL == nil) { return found }
        throw MasterKeyMissing(description: "this command needs the master key that seals the store's secrets: \(MasterKeyFile.howTo)")
    }

    /// `DATA/master.key`.
    var masterKeyPath: String { data.hasSuffix("/") ? data + "master.key" : data + "/master.key" }
}

/// Master key files: read, created (0600, never over an existing file).
enum MasterKeyFile {
    /// How to make and give a master key, for error messages.
    static let howTo =
        "make one with `flint keys master-key > master.key` (keep the file 0600, away from the database) and give it with --master-key-file FILE or FLINT_MASTER_KEY_FILE, or its text in FLINT_MASTER_KEY"

    /// Reads a key file.
    static func read(path: String) throws -> MasterKey {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw MasterKeyMissing(description: "cannot read the master key file \(path)")
        }
        do { return try MasterKey(base64: String(decoding: data, as: UTF8.self)) } catch {
            throw MasterKeyMissing(description: "the master key file \(path): \(error)")
        }
    }

    /// Writes a new key to `path` (0600, never over an existing file) and returns it, or the one another process
    /// wrote there first.
    static func create(path: String) throws -> MasterKey {
        let directory = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        if !directory.isEmpty {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        let key = MasterKey.generate()
        do { try save(key, at: path) } catch let error as MasterKeyMissing {
            // Another node starting on this data directory at the same moment made it first: that one is the key.
            guard FileManager.default.fileExists(atPath: path) else { throw error }
            return try read(path: path)
        }
        return key
    }

    /// Writes `key` to a new file at `path`, readable by its owner only. The file appears whole or not at all: it is
    /// written under a temporary name and linked to `path`, which fails if `path` exists.
    static func save(_ key: MasterKey, at path: String) throws {
        let temporary = path + ".\(getpid()).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard fd >= 0 else { throw MasterKeyMissing(description: "cannot create the master key file \(temporary) (errno \(errno))") }
        defer { unlink(temporary) }
        let text = Array((key.base64 + "\n").utf8)
        let written = text.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        let synced = fsync(fd) == 0
        close(fd)
        guard written == text.count, synced else { throw MasterKeyMissing(description: "cannot write the master key file \(temporary)") }
        guard link(temporary, path) == 0 else { throw MasterKeyMissing(description: "cannot create the master key file \(path) (errno \(errno))") }
    }
}

/// Why a command cannot go on without a master key, printed as one line (no usage text), exit status 1.
struct MasterKeyMissing: Error, CustomStringConvertible {
    let description: String
}
