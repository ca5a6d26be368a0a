import FlintCore

/// The members of one object of an import (a user, a provider, a second factor) read by proto3's JSON rules as
/// Google's front end reads `accounts:batchCreate`: absent and `null` are the same, numbers and booleans may come as
/// strings, 64-bit integers as strings of digits, bytes as base64 in either alphabet. A member of the wrong type is
/// `INVALID_ARGUMENT` naming it with its path (`users[3].email_verified`), as Google names it.
struct ImportFields {
    /// The members, keys in camelCase.
    let members: [String: JSONValue]
    /// Where the object is in the request: `users[3]`, `users[3].mfa_info[0]`.
    let path: String

    init(_ members: [String: JSONValue], path: String) {
        self.members = WireBody(fields: members).fields
        self.path = path
    }

    /// The member's value; `nil` when absent or `null`.
    func value(_ name: String) -> JSONValue? {
        guard let value = members[name], value != .null else { return nil }
        return value
    }

    /// A string member; numbers and booleans are taken as their text.
    func string(_ name: String) throws(AuthError) -> String? {
        switch value(name) {
        case nil: return nil
        case .string(let text): return text
        case .number(let n): return n.rounded() == n && abs(n) < 1e15 ? String(Int64(n)) : String(n)
        case .bool(let b): return String(b)
        case let other?: throw wrongType(name, "TYPE_STRING", other)
        }
    }

    /// A boolean member (`false` when absent); `"true"` and `"false"` are taken.
    func bool(_ name: String) throws(AuthError) -> Bool {
        switch value(name) {
        case nil: return false
        case .bool(let b): return b
        case .string("true"): return true
        case .string("false"): return false
        case let other?: throw wrongType(name, "TYPE_BOOL", other)
        }
    }

    /// An int64 member: a whole number, or a string of one.
    func int64(_ name: String) throws(AuthError) -> Int64? {
        switch value(name) {
        case nil: return nil
        case .number(let n): if n.rounded() == n, let exact = Int64(exactly: n) { return exact }
        case .string(let text): if let parsed = Int64(text) { return parsed }
        default: break
        }
        throw wrongType(name, "TYPE_INT64", value(name) ?? .null)
    }

    /// A bytes member: base64 in the standard or URL-safe alphabet, padded or not.
    func bytes(_ name: String) throws(AuthError) -> [UInt8]? {
        guard let value = value(name) else { return nil }
        guard case .string(let text) = value else { throw wrongType(name, "TYPE_BYTES", value) }
        guard let bytes = ImportBase64.decode(text) else {
            throw AuthError.invalidJSON("Invalid value at '\(qualified(name))' (TYPE_BYTES), Base64 decoding failed for \"\(text.prefix(40))\"")
        }
        return bytes
    }

    /// A repeated message member: its objects, each with its own path (`users[3].mfa_info[0]`).
    func objects(_ name: String) throws(AuthError) -> [ImportFields] {
        guard let value = value(name) else { return [] }
        let items = value.arrayValue ?? [value]
        var out: [ImportFields] = []
        for (i, item) in items.enumerated() {
            guard case .object(let members) = item else { throw wrongType("\(name)[\(i)]", "message", item) }
            out.append(ImportFields(members, path: "\(qualified(name))[\(i)]"))
        }
        return out
    }

    /// `users[3].email_verified` for `emailVerified`.
    func qualified(_ name: String) -> String {
        path.isEmpty ? WireBody.snakeCase(name) : "\(path).\(WireBody.snakeCase(name))"
    }

    private func wrongType(_ name: String, _ expected: String, _ value: JSONValue) -> AuthError {
        let got = value.kindName == "object" ? "{...}" : value.stringValue.map { "\"\($0.prefix(40))\"" } ?? value.kindName
        return AuthError.invalidJSON("Invalid value at '\(qualified(name))' (\(expected)), \(got)")
    }
}

/// Base64 as imports carry it: Firebase's exports write the standard alphabet with padding, its REST API reads
/// either alphabet with or without it.
package enum ImportBase64 {
    /// The bytes of `text`, or `nil` when it is not base64. Imports decode two of these per user, so this reads the
    /// UTF-8 bytes once through a table rather than going through `Data`.
    package static func decode(_ text: String) -> [UInt8]? {
        var text = text
        return text.withUTF8 { bytes -> [UInt8]? in
            var end = bytes.count
            while end > 0, bytes[end - 1] == UInt8(ascii: "=") { end -= 1 }
            guard bytes.count - end <= 2, end % 4 != 1 else { return nil }
            var out = [UInt8]()
            out.reserveCapacity(end * 3 / 4)
            var bits: UInt32 = 0
            var held = 0
            for i in 0..<end {
                let value = table[Int(bytes[i])]
                guard value < 64 else { return nil }
                bits = bits << 6 | UInt32(value)
                held += 6
                if held >= 8 {
                    held -= 8
                    out.append(UInt8(truncatingIfNeeded: bits >> UInt32(held)))
                }
            }
            return out
        }
    }

    /// The value of each byte in either alphabet (`+` and `-` are 62, `/` and `_` are 63); 255 for the others.
    private static let table: [UInt8] = {
        var table = [UInt8](repeating: 255, count: 256)
        for (i, c) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8.enumerated() { table[Int(c)] = UInt8(i) }
        table[Int(UInt8(ascii: "+"))] = 62
        table[Int(UInt8(ascii: "-"))] = 62
        table[Int(UInt8(ascii: "/"))] = 63
        table[Int(UInt8(ascii: "_"))] = 63
        return table
    }()

    /// Unpadded base64url, as ``ImportedPasswordHash/stored`` writes salts and hashes (the same text as
    /// `Base64URL.encode`, without going through `Data`).
    package static func encodeURL(_ bytes: [UInt8]) -> String {
        var out = [UInt8]()
        out.reserveCapacity((bytes.count * 4 + 2) / 3)
        var i = 0
        while i + 2 < bytes.count {
            let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
            out += [urlAlphabet[Int(n >> 18)], urlAlphabet[Int(n >> 12 & 63)], urlAlphabet[Int(n >> 6 & 63)], urlAlphabet[Int(n & 63)]]
            i += 3
        }
        if i + 1 == bytes.count {
            let n = UInt32(bytes[i]) << 16
            out += [urlAlphabet[Int(n >> 18)], urlAlphabet[Int(n >> 12 & 63)]]
        } else if i + 2 == bytes.count {
            let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8
            out += [urlAlphabet[Int(n >> 18)], urlAlphabet[Int(n >> 12 & 63)], urlAlphabet[Int(n >> 6 & 63)]]
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static let urlAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Standard base64 with padding, as `firebase auth:export` writes hashes and salts.
    package static func encode(_ bytes: [UInt8]) -> String {
        var text = String(Base64URL.encode(bytes).map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
        while text.utf8.count % 4 != 0 { text += "=" }
        return text
    }
}
