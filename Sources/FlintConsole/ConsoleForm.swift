import FlintServer
import Hummingbird
import NIOCore

/// What console requests carry: `application/x-www-form-urlencoded` bodies and the session cookie.
enum ConsoleForm {
    /// The most a console form may send.
    static let maxBytes = 64 * 1024

    /// The fields of a form body of at most `limit` bytes (the last value of a repeated name wins).
    static func read(_ request: Request, limit: Int = maxBytes) async throws -> [String: String] {
        let buffer = try await request.body.collect(upTo: limit)
        return fields(String(buffer: buffer))
    }

    /// Parses `name=value&…`, with `+` as a space and `%XX` escapes.
    static func fields(_ text: String) -> [String: String] {
        var out: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = parts.first.map({ decode(String($0)) }), !name.isEmpty else { continue }
            out[name] = parts.count > 1 ? decode(String(parts[1])) : ""
        }
        return out
    }

    /// Percent-decodes one component; an invalid escape is kept as written.
    static func decode(_ text: String) -> String {
        var bytes: [UInt8] = []
        let source = Array(text.utf8)
        var i = 0
        while i < source.count {
            let byte = source[i]
            if byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"), i + 2 < source.count, let high = hex(source[i + 1]), let low = hex(source[i + 2]) {
                bytes.append(high << 4 | low)
                i += 2
            } else {
                bytes.append(byte)
            }
            i += 1
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// The value of cookie `name` in the request's `Cookie` headers.
    static func cookie(_ name: String, in request: Request) -> String? {
        for header in request.headers[values: .cookie] {
            for part in header.split(separator: ";") {
                let pair = part.split(separator: "=", maxSplits: 1)
                if pair.count == 2, pair[0].trimming(" ") == name { return String(pair[1]).trimmingSpaces }
            }
        }
        return nil
    }

    /// A query parameter, or `nil` when absent or empty.
    static func query(_ name: String, in request: Request) -> String? {
        // Read from the raw query, so `+` and escapes are decoded as browsers encode forms.
        guard let value = fields(request.uri.query ?? "")[name], !value.isEmpty else { return nil }
        return value
    }
}

extension Substring {
    fileprivate func trimming(_ set: Character) -> String {
        var s = self
        while s.first == set { s = s.dropFirst() }
        while s.last == set { s = s.dropLast() }
        return String(s)
    }
}
