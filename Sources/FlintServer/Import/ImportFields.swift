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
public enum ImportBase64 {
    /// The bytes of `text`, or `nil` when it is not base64.
    public static func decode(_ text: String) -> [UInt8]? {
        var body = Substring(text)
        while body.hasSuffix("=") { body = body.dropLast() }
        guard text.count - body.count <= 2 else { return nil }
        return Base64URL.decode(String(body.map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 }))
    }

    /// Standard base64 with padding, as `firebase auth:export` writes hashes and salts.
    public static func encode(_ bytes: [UInt8]) -> String {
        var text = String(Base64URL.encode(bytes).map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
        while text.utf8.count % 4 != 0 { text += "=" }
        return text
    }
}
