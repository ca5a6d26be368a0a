import FlintCore
import FlintServer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The files `flint backup` writes and `flint restore` reads: a SQLite database as it is, or sealed
/// (``SealedBackup``), streamed a frame at a time. Every file is created new (never over another), 0600, and flushed
/// to disk before it is called done.
enum BackupFile {
    /// What a backup file holds, told by its first bytes.
    enum Kind {
        /// A SQLite database (`VACUUM INTO`'s copy).
        case database
        /// An encrypted backup, sealed with the master key of this ID.
        case encrypted(masterKeyID: String)
    }

    /// The kind of the file at `path`.
    /// - Throws: ``FileError`` when it cannot be read or is neither kind.
    static func kind(of path: String) throws -> Kind {
        let file = try RawFile(reading: path)
        let prefix = try file.readBlock(4096 + SealedBackup.magic.count + 4)
        if prefix.starts(with: Array("SQLite format 3\0".utf8)) { return .database }
        if let id = SealedBackup.masterKeyID(header: prefix) { return .encrypted(masterKeyID: id) }
        throw FileError(path: path, reason: "neither a SQLite database nor an encrypted Flint backup")
    }

    /// Copies `source` into a new file at `destination`.
    static func copy(_ source: String, to destination: String) throws {
        let input = try RawFile(reading: source)
        let output = try RawFile(creating: destination)
        while true {
            let block = try input.readBlock(SealedBackup.frameSize)
            if block.isEmpty { break }
            try output.writeAll(block)
        }
        try output.sync()
    }

    /// Seals the database at `source` with `masterKey` into a new file at `destination`.
    static func seal(_ source: String, to destination: String, with masterKey: MasterKey) throws {
        let input = try RawFile(reading: source)
        let output = try RawFile(creating: destination)
        let (header, start) = try SealedBackup.start(masterKey: masterKey)
        var writer = start
        try output.writeAll(header)
        var block = try input.readBlock(SealedBackup.frameSize)
        while true {
            let next = block.isEmpty ? [] : try input.readBlock(SealedBackup.frameSize)
            try output.writeAll(try writer.frame(block, last: next.isEmpty))
            if next.isEmpty { break }
            block = next
        }
        try output.sync()
    }

    /// Opens the encrypted backup at `source` with `masterKey` into a new file at `destination`.
    /// - Throws: ``MasterKeyError`` for a missing or wrong key, ``SealedBackup/Failure`` for an altered or cut file.
    static func open(_ source: String, to destination: String, with masterKey: MasterKey?) throws {
        let input = try RawFile(reading: source)
        var header = try input.readBlock(SealedBackup.magic.count + 4)
        guard let length = SealedBackup.headerLength(header) else { throw SealedBackup.Failure.notEncryptedBackup }
        header += try input.readBlock(length - header.count)
        var reader = try SealedBackup.reader(header: header, masterKey: masterKey)
        let output = try RawFile(creating: destination)
        while true {
            let block = try input.readBlock(SealedBackup.frameSize)
            if block.isEmpty { break }
            try output.writeAll(try reader.open(block))
        }
        try reader.finish()
        try output.sync()
    }
}

/// A file descriptor read or written whole blocks at a time, closed when dropped.
final class RawFile {
    let path: String
    private let fd: Int32

    /// Opens `path` for reading.
    init(reading path: String) throws {
        self.path = path
        fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw FileError(path: path, reason: String(cString: strerror(errno))) }
    }

    /// Creates `path` (0600), failing when it exists.
    init(creating path: String) throws {
        self.path = path
        fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard fd >= 0 else { throw FileError(path: path, reason: String(cString: strerror(errno))) }
    }

    deinit { close(fd) }

    /// Up to `count` bytes, fewer only at the end of the file.
    func readBlock(_ count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let n = bytes.withUnsafeMutableBytes { buffer in buffer.baseAddress.map { read(fd, $0 + filled, count - filled) } ?? 0 }
            if n < 0, errno == EINTR { continue }
            guard n >= 0 else { throw FileError(path: path, reason: String(cString: strerror(errno))) }
            if n == 0 { break }
            filled += n
        }
        bytes.removeLast(count - filled)
        return bytes
    }

    /// Writes all of `bytes`.
    func writeAll(_ bytes: [UInt8]) throws {
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { buffer in buffer.baseAddress.map { write(fd, $0 + written, bytes.count - written) } ?? 0 }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { throw FileError(path: path, reason: String(cString: strerror(errno))) }
            written += n
        }
    }

    /// Flushes what was written to the disk.
    func sync() throws {
        guard fsync(fd) == 0 else { throw FileError(path: path, reason: String(cString: strerror(errno))) }
    }

    /// Flushes the file at `path` (one another writer made) to the disk.
    static func sync(path: String) throws {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw FileError(path: path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw FileError(path: path, reason: String(cString: strerror(errno))) }
    }
}
