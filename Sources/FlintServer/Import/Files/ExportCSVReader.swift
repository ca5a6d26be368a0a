package import FlintCore

/// Reads a `firebase auth:export` CSV file one record at a time (RFC 4180 quoting: fields in double quotes may hold
/// commas, line breaks and doubled quotes) and turns each record into the user object `firebase auth:import` sends:
/// the columns of ``ExportCSVColumns``, each field trimmed, one pair of surrounding quotes or apostrophes removed,
/// and empty fields left out.
package struct ExportCSVReader: ~Copyable {
    private var bytes: ByteStream
    private var index = 0

    package init(path: String) throws {
        bytes = try ByteStream(path: path)
    }

    /// Bytes read so far (for progress).
    package var offset: Int { bytes.offset }

    /// The next user, or `nil` at the end of the file. Blank lines are skipped.
    package mutating func next() throws(ExportFileError) -> ExportRecord? {
        while true {
            let line = bytes.line
            guard let fields = try record() else { return nil }
            if fields.allSatisfy(\.isEmpty) { continue }
            defer { index += 1 }
            return ExportRecord(fields: .success(ExportCSVColumns.user(fields.map(Self.clean))), index: index, line: line)
        }
    }

    /// The raw fields of the next record; `nil` at the end of the file.
    private mutating func record() throws(ExportFileError) -> [String]? {
        guard bytes.peek() != nil else { return nil }
        var fields: [String] = []
        var field: [UInt8] = []
        let start = bytes.line
        var quoted = false
        while true {
            guard let byte = bytes.next() else {
                if quoted { throw ExportFileError(line: start, reason: "the file ends inside a quoted field") }
                fields.append(String(decoding: field, as: UTF8.self))
                return fields
            }
            if quoted {
                if byte == UInt8(ascii: "\"") {
                    if bytes.peek() == UInt8(ascii: "\"") {
                        field.append(bytes.next()!)
                    } else {
                        quoted = false
                    }
                } else {
                    field.append(byte)
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\"") where field.allSatisfy({ $0 == 32 || $0 == 9 }):
                field.removeAll()
                quoted = true
            case UInt8(ascii: ","):
                fields.append(String(decoding: field, as: UTF8.self))
                field.removeAll(keepingCapacity: true)
            case 10:
                if field.last == 13 { field.removeLast() }
                fields.append(String(decoding: field, as: UTF8.self))
                return fields
            default:
                field.append(byte)
            }
        }
    }

    /// firebase-tools' clean-up of a parsed field: trimmed, one pair of surrounding `"` or `'` removed; `nil` when
    /// empty.
    package static func clean(_ field: String) -> String? {
        var text = Substring(field)
        while let first = text.first, first.isWhitespace { text = text.dropFirst() }
        while let last = text.last, last.isWhitespace { text = text.dropLast() }
        if text.count >= 2, let first = text.first, let last = text.last, "\"'|".contains(first), "\"'|".contains(last) {
            text = text.dropFirst().dropLast()
        }
        return text.isEmpty ? nil : String(text)
    }
}

/// The columns of `firebase auth:export`'s CSV (firebase-tools' accountExporter `transUserToArray` and
/// accountImporter `transArrayToUser`): 52 fields, written with a trailing comma.
package enum ExportCSVColumns {
    /// Fields per record (without the trailing empty one).
    package static let count = 52
    /// The federated providers' first columns: raw ID, email, display name, photo URL follow in that order.
    package static let providers: [(id: String, column: Int)] = [
        ("google.com", 7), ("facebook.com", 11), ("twitter.com", 15), ("github.com", 19), ("apple.com", 28), ("microsoft.com", 32),
        ("gc.apple.com", 36), ("playgames.google.com", 40), ("linkedin.com", 44), ("yahoo.com", 48),
    ]

    /// A record's user object, with the member names `accounts:batchCreate` takes.
    package static func user(_ fields: [String?]) -> [String: JSONValue] {
        func at(_ i: Int) -> String? { i < fields.count ? fields[i] : nil }
        var user: [String: JSONValue] = [:]
        let strings = [
            (0, "localId"), (1, "email"), (3, "passwordHash"), (4, "salt"), (5, "displayName"), (6, "photoUrl"), (23, "createdAt"),
            (24, "lastLoginAt"), (25, "phoneNumber"), (27, "customAttributes"),
        ]
        for (column, name) in strings { if let value = at(column) { user[name] = .string(value) } }
        user["emailVerified"] = .bool(at(2) == "true")
        user["disabled"] = .bool(at(26) == "true")
        var linked: [JSONValue] = []
        for (id, column) in providers where at(column) != nil {
            var provider: [String: JSONValue] = ["providerId": .string(id), "rawId": .string(at(column)!)]
            for (offset, name) in [(1, "email"), (2, "displayName"), (3, "photoUrl")] {
                if let value = at(column + offset) { provider[name] = .string(value) }
            }
            linked.append(.object(provider))
        }
        if !linked.isEmpty { user["providerUserInfo"] = .array(linked) }
        return user
    }
}
