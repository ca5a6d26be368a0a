import FlintCore
import Hummingbird
import NIOCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A parsed request body: a JSON object (or a form), its keys in `camelCase` (`snake_case` ones are accepted as
/// Google's front end accepts them). Wire types are decoded from it by ``WireDecoder``.
struct WireBody: Sendable {
    static let maxBytes = 1 << 20
    let fields: [String: JSONValue]

    init(fields: [String: JSONValue]) {
        guard fields.keys.contains(where: { $0.utf8.contains(UInt8(ascii: "_")) }) else {
            self.fields = fields
            return
        }
        var normalized: [String: JSONValue] = [:]
        for (key, value) in fields { normalized[Self.camelCase(key)] = value }
        self.fields = normalized
    }

    /// Reads and parses the body of `request` (JSON, or `application/x-www-form-urlencoded` when `allowForm`).
    static func read(_ request: Request, allowForm: Bool = false) async throws(AuthError) -> WireBody {
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: maxBytes)
        } catch {
            throw AuthError.payloadTooLarge
        }
        if buffer.readableBytes == 0 { return WireBody(fields: [:]) }
        let contentType = request.headers[.contentType]?.lowercased() ?? ""
        if allowForm && contentType.hasPrefix("application/x-www-form-urlencoded") {
            return WireBody(fields: FormDecoding.decode(String(buffer: buffer)).mapValues(JSONValue.string))
        }
        let value: JSONValue
        do {
            value = try JSONValue(parsing: buffer.readableBytesView)
        } catch {
            throw AuthError.invalidJSON("Unexpected token (\(error.description)).")
        }
        guard let object = value.objectValue else {
            throw AuthError.invalidJSON("Root element must be a message.")
        }
        return WireBody(fields: object)
    }

    /// `snake_case` → `camelCase` (`phone_number` → `phoneNumber`); other keys are kept. Keys are the client's: a
    /// letter whose case mapping is several characters (`ß` → `SS`) is appended as its mapping, never forced into one
    /// `Character`.
    static func camelCase(_ key: String) -> String {
        guard key.contains("_") else { return key }
        var out = ""
        var upper = false
        for ch in key {
            if ch == "_" {
                upper = !out.isEmpty
            } else {
                if upper { out += ch.uppercased() } else { out.append(ch) }
                upper = false
            }
        }
        return out
    }

    /// `camelCase` → `snake_case`, as Google's error messages name fields.
    static func snakeCase(_ key: String) -> String {
        var out = ""
        for ch in key {
            if ch.isUppercase {
                out.append("_")
                out += ch.lowercased()
            } else {
                out.append(ch)
            }
        }
        return out
    }
}

/// `application/x-www-form-urlencoded` parsing.
enum FormDecoding {
    static func decode(_ text: String) -> [String: String] {
        var out: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = unescape(parts[0])
            let value = parts.count > 1 ? unescape(parts[1]) : ""
            if !key.isEmpty { out[key] = value }
        }
        return out
    }

    /// `+` is a space; `%XX` a byte; a broken escape is kept as written.
    private static func unescape(_ s: Substring) -> String {
        let bytes = Array(s.utf8)
        var out = [UInt8]()
        var i = 0
        while i < bytes.count {
            let c = bytes[i]
            if c == UInt8(ascii: "+") {
                out.append(UInt8(ascii: " "))
            } else if c == UInt8(ascii: "%"), i + 2 < bytes.count,
                let byte = Hex.decode(String(decoding: bytes[(i + 1)...(i + 2)], as: UTF8.self))?.first
            {
                out.append(byte)
                i += 2
            } else {
                out.append(c)
            }
            i += 1
        }
        return String(decoding: out, as: UTF8.self)
    }
}
