import ArgumentParser
import FlintCore

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

// Files only their owner may read: the store's directory, service-account credentials, master keys.

/// Makes every file and directory the process creates from now on private to its user (umask 077): the store holds
/// the signing keys and the server secret.
func createPrivateFilesOnly() { umask(0o077) }

/// Creates `path` with `text`, readable by its owner only; fails when it exists.
func writeSecretFile(_ path: String, _ text: String) throws {
    let fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
    guard fd >= 0 else { throw ValidationError("cannot create \(path): \(String(cString: strerror(errno)))") }
    defer { close(fd) }
    let bytes = Array(text.utf8)
    let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    guard written == bytes.count else { throw ValidationError("cannot write \(path): \(String(cString: strerror(errno)))") }
}

/// Removes a secret file written by a command that then failed.
func discardSecretFile(_ path: String) { unlink(path) }

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

    /// Moves the key file `staged` over `path` (one `rename`, so `path` always holds a whole key).
    /// - Returns: whether it was moved.
    static func replace(_ path: String, with staged: String) -> Bool { rename(staged, path) == 0 }
}
