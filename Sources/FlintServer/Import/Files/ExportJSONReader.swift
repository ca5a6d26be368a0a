package import FlintCore

/// One user record read from an export file, where it starts.
package struct ExportRecord {
    /// The user's members as the file spells them, or why the record is not a user.
    package var fields: Result<[String: JSONValue], ExportFileError>
    /// Its position among the file's users, from 0.
    package var index: Int
    /// The line it starts on, from 1.
    package var line: Int
}

/// A file that is not what `firebase auth:export` writes, at a place in it.
package struct ExportFileError: Error, CustomStringConvertible {
    package var line: Int
    package var reason: String
    package var description: String { "line \(line): \(reason)" }
}

/// Reads the `users` array of a `firebase auth:export` JSON file (`{"users": [ {...}, ... ]}`) one user at a time:
/// each element's bytes are collected and parsed alone, so memory holds one user, however long the file. Other
/// members of the top-level object are skipped. A user that is not valid JSON is reported as that user's failure;
/// a file whose structure breaks stops the reading with its line.
package struct ExportJSONReader: ~Copyable {
    private var bytes: ByteStream
    private var scratch: [UInt8] = []
    private var index = 0
    private var state = State.start

    private enum State { case start, inUsers, afterUsers, done }

    package init(path: String) throws {
        bytes = try ByteStream(path: path)
        scratch.reserveCapacity(4096)
    }

    /// Bytes read so far (for progress).
    package var offset: Int { bytes.offset }

    /// The next user, or `nil` after the last.
    package mutating func next() throws(ExportFileError) -> ExportRecord? {
        while true {
            switch state {
            case .start:
                bytes.skipSpace()
                try expect(UInt8(ascii: "{"), "the file does not start with a JSON object")
                try membersUntilUsers()
            case .inUsers:
                bytes.skipSpace()
                if bytes.peek() == UInt8(ascii: "]") {
                    _ = bytes.next()
                    state = .afterUsers
                    continue
                }
                if index > 0 {
                    // The separator after the previous user is checked now, so that user was returned first.
                    guard bytes.peek() == UInt8(ascii: ",") else { throw failure("expected , or ] after a user") }
                    _ = bytes.next()
                    bytes.skipSpace()
                }
                let line = bytes.line
                scratch.removeAll(keepingCapacity: true)
                try collectValue()
                let record = ExportRecord(fields: Self.parse(scratch, line: line), index: index, line: line)
                index += 1
                return record
            case .afterUsers:
                try membersUntilUsers(afterFirst: true)
            case .done:
                return nil
            }
        }
    }

    /// Reads top-level members up to the `users` array (entering it) or the end of the object.
    private mutating func membersUntilUsers(afterFirst: Bool = false) throws(ExportFileError) {
        var first = !afterFirst
        while true {
            bytes.skipSpace()
            if bytes.peek() == UInt8(ascii: "}") {
                _ = bytes.next()
                state = .done
                return
            }
            if !first { try expect(UInt8(ascii: ","), "expected , or } between members") }
            first = false
            bytes.skipSpace()
            scratch.removeAll(keepingCapacity: true)
            guard bytes.peek() == UInt8(ascii: "\"") else { throw failure("expected a member name") }
            try collectString()
            let name = String(decoding: scratch.dropFirst().dropLast(), as: UTF8.self)
            bytes.skipSpace()
            try expect(UInt8(ascii: ":"), "expected : after a member name")
            bytes.skipSpace()
            if name == "users" && state == .start {
                try expect(UInt8(ascii: "["), "users is not an array")
                state = .inUsers
                return
            }
            scratch.removeAll(keepingCapacity: true)
            try collectValue()
        }
    }

    /// Appends one JSON value's bytes to `scratch`: a string with its escapes, an object or array to its close, or a
    /// scalar up to the byte that ends it.
    private mutating func collectValue() throws(ExportFileError) {
        bytes.skipSpace()
        guard let first = bytes.peek() else { throw failure("the file ends where a value was expected") }
        if first == UInt8(ascii: "\"") { return try collectString() }
        guard first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else {
            while let byte = bytes.peek(), !Self.endsScalar(byte) { scratch.append(bytes.next()!) }
            if scratch.isEmpty { throw failure("expected a value") }
            return
        }
        var depth = 0
        while let byte = bytes.peek() {
            if byte == UInt8(ascii: "\"") {
                try collectString()
                continue
            }
            scratch.append(bytes.next()!)
            if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                depth += 1
            } else if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                depth -= 1
                if depth == 0 { return }
            }
        }
        throw failure("the file ends inside a value")
    }

    /// `,`, `]`, `}` and white space end a number, `true`, `false` or `null`.
    private static func endsScalar(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ",") || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}") || byte == 32 || byte == 10 || byte == 13 || byte == 9
    }

    /// Appends one string, quotes included, to `scratch`.
    private mutating func collectString() throws(ExportFileError) {
        scratch.append(bytes.next()!)
        var escaped = false
        while let byte = bytes.next() {
            scratch.append(byte)
            if escaped {
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "\"") {
                return
            } else if byte == 10 {
                throw failure("a line break inside a string")
            }
        }
        throw failure("the file ends inside a string")
    }

    private mutating func expect(_ byte: UInt8, _ reason: String) throws(ExportFileError) {
        guard bytes.next() == byte else { throw failure(reason) }
    }

    private func failure(_ reason: String) -> ExportFileError { ExportFileError(line: bytes.line, reason: reason) }

    /// One user's bytes as an object.
    private static func parse(_ text: [UInt8], line: Int) -> Result<[String: JSONValue], ExportFileError> {
        do {
            guard let object = try JSONValue(parsing: text).objectValue else {
                return .failure(ExportFileError(line: line, reason: "not a JSON object"))
            }
            return .success(object)
        } catch {
            return .failure(ExportFileError(line: line, reason: "not valid JSON (\(error.description))"))
        }
    }
}
