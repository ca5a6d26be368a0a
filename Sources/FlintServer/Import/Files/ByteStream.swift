#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file read forward in blocks, byte by byte, counting lines: what the streaming import readers consume. Memory is
/// one block, whatever the file's size.
package struct ByteStream: ~Copyable {
    private let file: UnsafeMutablePointer<FILE>
    private var block: [UInt8]
    private var count = 0
    private var position = 0
    /// Bytes consumed before the current block.
    private var consumedBefore = 0
    /// The line of the next byte, from 1.
    private(set) var line = 1

    /// Opens `path` for reading.
    package init(path: String, blockSize: Int = 1 << 20) throws {
        guard let file = fopen(path, "rb") else { throw FileError(path: path, reason: String(cString: strerror(errno))) }
        self.file = file
        self.block = [UInt8](repeating: 0, count: blockSize)
    }

    deinit { fclose(file) }

    /// Bytes consumed so far.
    package var offset: Int { consumedBefore + position }

    /// The next byte without consuming it; `nil` at the end of the file.
    package mutating func peek() -> UInt8? {
        if position == count {
            consumedBefore += count
            count = block.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            position = 0
            if count == 0 { return nil }
        }
        return block[position]
    }

    /// Consumes and returns the next byte; `nil` at the end of the file.
    package mutating func next() -> UInt8? {
        guard let byte = peek() else { return nil }
        position += 1
        if byte == 10 { line += 1 }
        return byte
    }

    /// Skips JSON white space (and a byte-order mark, which editors put at the start of files).
    package mutating func skipSpace() {
        while let byte = peek(), byte == 32 || byte == 10 || byte == 13 || byte == 9 || byte == 0xEF || byte == 0xBB || byte == 0xBF {
            _ = next()
        }
    }
}

/// A file that cannot be read or written.
package struct FileError: Error, CustomStringConvertible {
    package let path: String
    package let reason: String
    package var description: String { "\(path): \(reason)" }

    package init(path: String, reason: String) { (self.path, self.reason) = (path, reason) }
}
