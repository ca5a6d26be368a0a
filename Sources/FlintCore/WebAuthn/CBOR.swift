/// A CBOR data item (RFC 8949) of the subset WebAuthn uses: integers, byte and text strings, arrays, maps, `true`,
/// `false` and `null`. Tags, floats, `undefined` and indefinite lengths are refused by ``CBORDecoder``.
package enum CBOR: Sendable, Equatable {
    case unsigned(UInt64)
    /// A negative integer `-1 - n`, kept as `n` so the whole major type 1 range fits.
    case negative(UInt64)
    case bytes([UInt8])
    case text(String)
    case array([CBOR])
    /// Pairs in their encoded order (WebAuthn's maps have integer and text keys).
    case map([(CBOR, CBOR)])
    case bool(Bool)
    case null

    package static func == (lhs: CBOR, rhs: CBOR) -> Bool {
        switch (lhs, rhs) {
        case (.unsigned(let a), .unsigned(let b)), (.negative(let a), .negative(let b)): a == b
        case (.bytes(let a), .bytes(let b)): a == b
        case (.text(let a), .text(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.map(let a), .map(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        case (.bool(let a), .bool(let b)): a == b
        case (.null, .null): true
        default: false
        }
    }

    /// The value as a signed integer, when it is one that fits in `Int64`.
    package var int: Int64? {
        switch self {
        case .unsigned(let n): n <= UInt64(Int64.max) ? Int64(n) : nil
        case .negative(let n): n <= UInt64(Int64.max) ? -1 - Int64(n) : nil
        default: nil
        }
    }

    package var bytes: [UInt8]? {
        if case .bytes(let b) = self { return b }
        return nil
    }

    package var text: String? {
        if case .text(let t) = self { return t }
        return nil
    }

    /// The value under an integer key of a map (COSE keys).
    package subscript(key: Int64) -> CBOR? {
        guard case .map(let pairs) = self else { return nil }
        return pairs.first { $0.0.int == key }?.1
    }

    /// The value under a text key of a map (attestation objects, statements).
    package subscript(key: String) -> CBOR? {
        guard case .map(let pairs) = self else { return nil }
        return pairs.first { $0.0.text == key }?.1
    }
}

/// Why bytes are not the CBOR the decoder accepts.
package struct CBORError: Error, Equatable, Sendable {
    /// What was wrong.
    package let reason: String
    /// Where, in bytes from the start.
    package let offset: Int
}

/// A strict decoder of one CBOR item: definite lengths only, no tags or floats, at most ``maximumDepth`` levels of
/// nesting, no duplicate map keys, and every length checked against what is left, so malformed input throws and
/// never traps.
package struct CBORDecoder {
    /// Deepest nesting accepted (WebAuthn's items nest three or four levels).
    package static let maximumDepth = 16

    private let bytes: [UInt8]
    /// The offset of the next byte to read.
    package private(set) var position = 0

    package init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Decodes exactly one item that takes all of `bytes`.
    /// - Throws: ``CBORError`` for malformed input or trailing bytes.
    package static func decode(_ bytes: [UInt8]) throws(CBORError) -> CBOR {
        var decoder = CBORDecoder(bytes)
        let item = try decoder.next()
        guard decoder.position == bytes.count else { throw CBORError(reason: "trailing bytes", offset: decoder.position) }
        return item
    }

    /// Decodes the next item; ``position`` then points past it (authenticator data holds a COSE key followed by
    /// extensions).
    package mutating func next() throws(CBORError) -> CBOR {
        try item(depth: 0)
    }

    private mutating func item(depth: Int) throws(CBORError) -> CBOR {
        guard depth < Self.maximumDepth else { throw fail("nested too deeply") }
        let start = position
        let initial = try byte()
        let major = initial >> 5
        let info = initial & 0x1f
        if major == 7 {
            switch info {
            case 20: return .bool(false)
            case 21: return .bool(true)
            case 22: return .null
            default: throw CBORError(reason: "unsupported simple value or float", offset: start)
            }
        }
        let argument = try self.argument(info, at: start)
        switch major {
        case 0: return .unsigned(argument)
        case 1: return .negative(argument)
        case 2: return .bytes(try take(argument))
        case 3:
            guard let text = String(validating: try take(argument), as: UTF8.self) else {
                throw CBORError(reason: "text is not UTF-8", offset: start)
            }
            return .text(text)
        case 4:
            let count = try self.count(argument, minimumItemSize: 1)
            var items: [CBOR] = []
            items.reserveCapacity(count)
            for _ in 0..<count { items.append(try item(depth: depth + 1)) }
            return .array(items)
        case 5:
            let count = try self.count(argument, minimumItemSize: 2)
            var pairs: [(CBOR, CBOR)] = []
            pairs.reserveCapacity(count)
            for _ in 0..<count {
                let keyOffset = position
                let key = try item(depth: depth + 1)
                guard !pairs.contains(where: { $0.0 == key }) else { throw CBORError(reason: "duplicate map key", offset: keyOffset) }
                pairs.append((key, try item(depth: depth + 1)))
            }
            return .map(pairs)
        default:
            throw CBORError(reason: "tags are not supported", offset: start)
        }
    }

    /// The argument of the initial byte: its low bits, or the 1, 2, 4 or 8 bytes after it.
    private mutating func argument(_ info: UInt8, at start: Int) throws(CBORError) -> UInt64 {
        switch info {
        case 0..<24: return UInt64(info)
        case 24: return UInt64(try byte())
        case 25: return try bigEndian(2)
        case 26: return try bigEndian(4)
        case 27: return try bigEndian(8)
        case 31: throw CBORError(reason: "indefinite lengths are not supported", offset: start)
        default: throw CBORError(reason: "reserved additional information", offset: start)
        }
    }

    /// An item count that the remaining bytes could hold at all (so a huge count cannot reserve memory).
    private func count(_ argument: UInt64, minimumItemSize: Int) throws(CBORError) -> Int {
        guard argument <= UInt64(bytes.count - position) / UInt64(minimumItemSize) else { throw fail("count past the end") }
        return Int(argument)
    }

    private mutating func byte() throws(CBORError) -> UInt8 {
        guard position < bytes.count else { throw fail("unexpected end") }
        defer { position += 1 }
        return bytes[position]
    }

    private mutating func bigEndian(_ width: Int) throws(CBORError) -> UInt64 {
        var value: UInt64 = 0
        for _ in 0..<width { value = value << 8 | UInt64(try byte()) }
        return value
    }

    private mutating func take(_ length: UInt64) throws(CBORError) -> [UInt8] {
        guard length <= UInt64(bytes.count - position) else { throw fail("length past the end") }
        let end = position + Int(length)
        defer { position = end }
        return Array(bytes[position..<end])
    }

    private func fail(_ reason: String) -> CBORError {
        CBORError(reason: reason, offset: position)
    }
}
