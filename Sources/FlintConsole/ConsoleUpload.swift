import FlintCore
import FlintServer
import HTTPTypes
import Hummingbird
import NIOCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A `multipart/form-data` upload (RFC 7578) with one file, kept on disk: the body is written to a temporary file as
/// it arrives (memory holds one chunk), refused past a size limit, then split into its parts: the small fields read
/// into memory, the file's bytes copied into a temporary file of their own, which the caller removes.
struct ConsoleUpload {
    /// The form's text fields (at most ``fieldLimit`` bytes each).
    var fields: [String: String] = [:]
    /// The file part: its name as the browser sent it, and where its bytes are.
    var file: (name: String, path: String)?

    /// The most a text field may hold.
    static let fieldLimit = 4096

    /// Why an upload was refused, in words for the operator.
    struct Refusal: Error, CustomStringConvertible {
        let description: String
        /// The answer's status: 413 for a file past the limit, else 400.
        var status: HTTPResponse.Status = .badRequest
    }

    /// Reads `request`'s multipart body of at most `limit` bytes into `directory`.
    /// - Throws: ``Refusal`` for a body that is not multipart, too large or malformed; a file error.
    static func read(_ request: Request, limit: Int, directory: String) async throws -> ConsoleUpload {
        guard let type = request.headers[.contentType], let boundary = boundary(type) else {
            throw Refusal(description: "The form was not sent as multipart/form-data.")
        }
        if let length = request.headers[.contentLength].flatMap(Int.init), length > limit { throw tooLarge(limit) }
        let raw = try TemporaryFile(directory: directory)
        defer { raw.remove() }
        var size = 0
        for try await chunk in request.body {
            size += chunk.readableBytes
            guard size <= limit else { throw tooLarge(limit) }
            try raw.write(chunk.readableBytesView)
        }
        try raw.close()
        return try split(raw.path, size: size, boundary: Array("--\(boundary)".utf8), directory: directory)
    }

    private static func tooLarge(_ limit: Int) -> Refusal {
        Refusal(
            description: "The file is larger than the console takes (\(ConsoleTransfers.size(limit))); import it with `flint users import`.",
            status: .contentTooLarge)
    }

    /// The boundary of a `multipart/form-data` content type.
    static func boundary(_ contentType: String) -> String? {
        let parts = contentType.split(separator: ";").map { String($0).trimmingSpaces }
        guard parts.first?.lowercased() == "multipart/form-data" else { return nil }
        for part in parts.dropFirst() where part.lowercased().hasPrefix("boundary=") {
            var value = String(part.dropFirst("boundary=".count))
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
            return (1...70).contains(value.utf8.count) ? value : nil
        }
        return nil
    }

    /// Splits the body stored at `path` into its parts.
    private static func split(_ path: String, size: Int, boundary: [UInt8], directory: String) throws -> ConsoleUpload {
        let malformed = Refusal(description: "The upload is not a well-formed multipart/form-data body.")
        // The delimiters: the first at the start, the others after a CR LF.
        let delimiters = try find([13, 10] + boundary, in: path)
        guard let head = try bytes(of: path, in: 0..<min(boundary.count, size)), head == boundary else { throw malformed }
        var starts = [boundary.count]
        var ends: [Int] = []
        for at in delimiters {
            ends.append(at)
            starts.append(at + 2 + boundary.count)
        }
        var upload = ConsoleUpload()
        for (start, end) in zip(starts, ends) {
            // After a delimiter: CR LF, the headers, an empty line, the content up to the next delimiter.
            let window = try bytes(of: path, in: start..<min(end, start + 8192)) ?? []
            guard window.starts(with: [13, 10]), let blank = firstRange(of: [13, 10, 13, 10], in: window) else { throw malformed }
            let headers = String(decoding: window[2..<blank.lowerBound], as: UTF8.self)
            guard let disposition = disposition(headers), let name = disposition.name else { throw malformed }
            let content = (start + blank.upperBound)..<end
            if let fileName = disposition.fileName {
                guard upload.file == nil, !content.isEmpty else {
                    if content.isEmpty { continue }
                    throw Refusal(description: "Send one file at a time.")
                }
                let file = try TemporaryFile(directory: directory)
                do {
                    try copy(path, content, to: file)
                    try file.close()
                } catch {
                    file.remove()
                    throw error
                }
                upload.file = (fileName, file.path)
            } else {
                guard content.count <= fieldLimit, let value = try bytes(of: path, in: content) else { throw malformed }
                upload.fields[name] = String(decoding: value, as: UTF8.self)
            }
        }
        return upload
    }

    /// A part's `Content-Disposition: form-data; name="…"; filename="…"`.
    static func disposition(_ headers: String) -> (name: String?, fileName: String?)? {
        for line in headers.split(separator: "\r\n") {
            let pair = line.split(separator: ":", maxSplits: 1)
            guard pair.count == 2, String(pair[0]).trimmingSpaces.lowercased() == "content-disposition" else { continue }
            var (name, fileName): (String?, String?) = (nil, nil)
            for parameter in pair[1].split(separator: ";").dropFirst() {
                let kv = parameter.split(separator: "=", maxSplits: 1)
                guard kv.count == 2 else { continue }
                var value = String(kv[1]).trimmingSpaces
                if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
                switch String(kv[0]).trimmingSpaces.lowercased() {
                case "name": name = value
                case "filename": fileName = value
                default: break
                }
            }
            return (name, fileName)
        }
        return nil
    }

    /// Where `needle` starts in `haystack`.
    static func firstRange(of needle: [UInt8], in haystack: some Collection<UInt8>) -> Range<Int>? {
        let bytes = Array(haystack)
        guard bytes.count >= needle.count else { return nil }
        for i in 0...(bytes.count - needle.count) where bytes[i] == needle[0] && bytes[i..<(i + needle.count)].elementsEqual(needle) {
            return i..<(i + needle.count)
        }
        return nil
    }

    /// Every offset of `needle` in the file at `path`, read in blocks that overlap by the needle's length.
    static func find(_ needle: [UInt8], in path: String, blockSize: Int = 1 << 20) throws -> [Int] {
        guard let file = fopen(path, "rb") else { throw FileError(path: path, reason: String(cString: strerror(errno))) }
        defer { fclose(file) }
        var found: [Int] = []
        var carry: [UInt8] = []
        var offset = 0
        var block = [UInt8](repeating: 0, count: blockSize)
        while true {
            let n = block.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            if n == 0 { break }
            let window = carry + block[0..<n]
            let base = offset - carry.count
            var i = 0
            while i + needle.count <= window.count {
                if window[i] == needle[0], window[i..<(i + needle.count)].elementsEqual(needle) {
                    found.append(base + i)
                    i += needle.count
                } else {
                    i += 1
                }
            }
            // Keep what could start a needle that goes on in the next block, after the last one found.
            let lastEnd = found.last.map { $0 + needle.count - base } ?? 0
            carry = Array(window[max(window.count - (needle.count - 1), lastEnd, 0)...])
            offset += n
        }
        return found
    }

    /// The bytes of `range` in the file at `path`, or `nil` when the file is shorter.
    private static func bytes(of path: String, in range: Range<Int>) throws -> [UInt8]? {
        guard let file = fopen(path, "rb") else { throw FileError(path: path, reason: String(cString: strerror(errno))) }
        defer { fclose(file) }
        guard fseeko(file, off_t(range.lowerBound), SEEK_SET) == 0 else { return nil }
        var out = [UInt8](repeating: 0, count: range.count)
        let n = out.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
        return n == range.count ? out : nil
    }

    /// Copies `range` of the file at `path` into `target`, a block at a time.
    private static func copy(_ path: String, _ range: Range<Int>, to target: TemporaryFile) throws {
        guard let file = fopen(path, "rb") else { throw FileError(path: path, reason: String(cString: strerror(errno))) }
        defer { fclose(file) }
        guard fseeko(file, off_t(range.lowerBound), SEEK_SET) == 0 else { throw FileError(path: path, reason: "seek failed") }
        var left = range.count
        var block = [UInt8](repeating: 0, count: 1 << 20)
        while left > 0 {
            let want = min(left, block.count)
            let n = block.withUnsafeMutableBytes { fread($0.baseAddress, 1, want, file) }
            guard n > 0 else { throw FileError(path: path, reason: "ended early") }
            try target.write(block[0..<n])
            left -= n
        }
    }
}

/// A file of the console's own in a temporary directory, created afresh (`O_EXCL`, readable by its owner only).
final class TemporaryFile {
    let path: String
    private var file: UnsafeMutablePointer<FILE>?

    init(directory: String) throws {
        path = "\(directory)/flint-console-\(Hex.encode(SystemRandom().bytes(12)))"
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0, let file = fdopen(descriptor, "wb") else {
            throw FileError(path: path, reason: String(cString: strerror(errno)))
        }
        self.file = file
    }

    deinit { if let file { fclose(file) } }

    /// Appends `bytes`.
    func write(_ bytes: some Collection<UInt8>) throws {
        let array = Array(bytes)
        let n = array.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        guard n == array.count else { throw FileError(path: path, reason: String(cString: strerror(errno))) }
    }

    /// Closes the file (it stays on disk).
    func close() throws {
        guard let file else { return }
        self.file = nil
        guard fclose(file) == 0 else { throw FileError(path: path, reason: String(cString: strerror(errno))) }
    }

    /// Removes the file.
    func remove() { unlink(path) }
}
