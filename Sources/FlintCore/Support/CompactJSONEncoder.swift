#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Writes an `Encodable` value as compact JSON text, as Foundation's `JSONEncoder` with `.withoutEscapingSlashes`
/// writes it — members in the order they are encoded, `Data` as base64, `URL` as its absolute string, integral
/// floating-point numbers without a fraction, non-finite ones refused — at a fraction of its cost: every answer of the
/// server goes through it, and a `list_users` page holds a thousand accounts.
///
/// The value is first built as a small tree (a keyed container may be asked for again, or nested, before anything can
/// be written), then written in one pass.
package struct CompactJSONEncoder: Sendable {
    package init() {}

    /// The JSON text of `value`.
    /// - Throws: `EncodingError.invalidValue` for a non-finite number, or a top-level value that encodes nothing.
    package func encode(_ value: some Encodable) throws -> [UInt8] {
        guard let root = try JSONTreeEncoder.node(of: value, codingPath: [], topLevel: true) else {
            throw EncodingError.invalidValue(
                value, EncodingError.Context(codingPath: [], debugDescription: "Top-level \(type(of: value)) did not encode any values."))
        }
        var out: [UInt8] = []
        out.reserveCapacity(256)
        root.write(to: &out)
        return out
    }
}

/// One value of the tree; objects and arrays are boxes, so the containers handed out keep filling them.
private enum JSONNode {
    case null
    case bool(Bool)
    case int(Int64)
    case uint(UInt64)
    case double(Double)
    case string(String)
    case array(JSONArrayBox)
    case object(JSONObjectBox)

    func write(to out: inout [UInt8]) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let value): out.append(contentsOf: (value ? "true" : "false").utf8)
        case .int(let value): out.append(contentsOf: String(value).utf8)
        case .uint(let value): out.append(contentsOf: String(value).utf8)
        case .double(let value):
            var text = value.description
            if text.hasSuffix(".0") { text.removeLast(2) }
            out.append(contentsOf: text.utf8)
        case .string(let value): JSONString.append(value, to: &out)
        case .array(let box):
            out.append(UInt8(ascii: "["))
            for (index, item) in box.items.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                item.write(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let box):
            out.append(UInt8(ascii: "{"))
            for index in box.keys.indices {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                JSONString.append(box.keys[index], to: &out)
                out.append(UInt8(ascii: ":"))
                box.values[index].write(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }
}

/// An object's members in the order they were first encoded; encoding a key again replaces its value.
private final class JSONObjectBox {
    var keys: [String] = []
    var values: [JSONNode] = []

    func set(_ key: String, _ value: JSONNode) {
        if let index = keys.firstIndex(of: key) {
            values[index] = value
        } else {
            keys.append(key)
            values.append(value)
        }
    }
}

private final class JSONArrayBox {
    var items: [JSONNode] = []
}

/// A key for `superEncoder()`, which Foundation files under `super`.
private struct JSONSuperKey: CodingKey {
    var stringValue: String { "super" }
    var intValue: Int? { nil }
    init() {}
    init?(stringValue: String) { nil }
    init?(intValue: Int) { nil }
}

/// The `Encoder` a value encodes itself into; its ``root`` is what it encoded, `nil` when nothing.
private final class JSONTreeEncoder: Encoder {
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    var root: JSONNode?
    /// Where a super encoder's value goes once it is released.
    private let onRelease: ((JSONNode) -> Void)?

    init(codingPath: [any CodingKey], onRelease: ((JSONNode) -> Void)? = nil) {
        self.codingPath = codingPath
        self.onRelease = onRelease
    }

    deinit { onRelease?(root ?? .object(JSONObjectBox())) }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let box: JSONObjectBox
        if case .object(let existing) = root {
            box = existing
        } else {
            box = JSONObjectBox()
            root = .object(box)
        }
        return KeyedEncodingContainer(JSONKeyedContainer<Key>(box: box, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let box: JSONArrayBox
        if case .array(let existing) = root {
            box = existing
        } else {
            box = JSONArrayBox()
            root = .array(box)
        }
        return JSONUnkeyedContainer(box: box, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { JSONSingleValueContainer(encoder: self) }

    /// The node of `value`: scalars, `Data` and `URL` directly, anything else through its `encode(to:)`; `nil` when
    /// a top-level value encodes nothing (nested, that is an empty object, as Foundation writes it).
    static func node<T: Encodable>(of value: T, codingPath: [any CodingKey], topLevel: Bool = false) throws -> JSONNode? {
        switch value {
        case let text as String: return .string(text)
        case let flag as Bool: return .bool(flag)
        case let number as Int: return .int(Int64(number))
        case let number as Int64: return .int(number)
        case let number as Double: return try double(number, codingPath: codingPath)
        case let data as Data: return .string(data.base64EncodedString())
        case let url as URL: return .string(url.absoluteString)
        default:
            let encoder = JSONTreeEncoder(codingPath: codingPath)
            try value.encode(to: encoder)
            return encoder.root ?? (topLevel ? nil : .object(JSONObjectBox()))
        }
    }

    static func nested<T: Encodable>(_ value: T, codingPath: [any CodingKey]) throws -> JSONNode {
        try node(of: value, codingPath: codingPath) ?? .object(JSONObjectBox())
    }

    /// A finite number; JSON has no NaN or infinity.
    static func double(_ value: Double, codingPath: [any CodingKey]) throws -> JSONNode {
        guard value.isFinite else {
            throw EncodingError.invalidValue(
                value, EncodingError.Context(codingPath: codingPath, debugDescription: "Unable to encode \(value) directly in JSON."))
        }
        return .double(value)
    }
}

private struct JSONKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let box: JSONObjectBox
    let codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws { box.set(key.stringValue, .null) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { box.set(key.stringValue, .bool(value)) }
    mutating func encode(_ value: String, forKey key: Key) throws { box.set(key.stringValue, .string(value)) }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        box.set(key.stringValue, try JSONTreeEncoder.double(value, codingPath: codingPath + [key]))
    }
    mutating func encode(_ value: Float, forKey key: Key) throws { try encode(Double(value), forKey: key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { box.set(key.stringValue, .int(Int64(value))) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { box.set(key.stringValue, .int(Int64(value))) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { box.set(key.stringValue, .int(Int64(value))) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { box.set(key.stringValue, .int(Int64(value))) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { box.set(key.stringValue, .int(value)) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { box.set(key.stringValue, .uint(UInt64(value))) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { box.set(key.stringValue, .uint(UInt64(value))) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { box.set(key.stringValue, .uint(UInt64(value))) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { box.set(key.stringValue, .uint(UInt64(value))) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { box.set(key.stringValue, .uint(value)) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        box.set(key.stringValue, try JSONTreeEncoder.nested(value, codingPath: codingPath + [key]))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let child = JSONObjectBox()
        box.set(key.stringValue, .object(child))
        return KeyedEncodingContainer(JSONKeyedContainer<NestedKey>(box: child, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = JSONArrayBox()
        box.set(key.stringValue, .array(child))
        return JSONUnkeyedContainer(box: child, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder { superEncoder(named: JSONSuperKey()) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder(named: key) }

    private func superEncoder(named key: some CodingKey) -> any Encoder {
        let box = box
        let name = key.stringValue
        return JSONTreeEncoder(codingPath: codingPath + [key]) { box.set(name, $0) }
    }
}

/// A position in an unkeyed container, for coding paths.
private struct JSONIndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}

private struct JSONUnkeyedContainer: UnkeyedEncodingContainer {
    let box: JSONArrayBox
    let codingPath: [any CodingKey]
    var count: Int { box.items.count }

    private var nextPath: [any CodingKey] { codingPath + [JSONIndexKey(box.items.count)] }

    mutating func encodeNil() throws { box.items.append(.null) }
    mutating func encode(_ value: Bool) throws { box.items.append(.bool(value)) }
    mutating func encode(_ value: String) throws { box.items.append(.string(value)) }
    mutating func encode(_ value: Double) throws { box.items.append(try JSONTreeEncoder.double(value, codingPath: nextPath)) }
    mutating func encode(_ value: Float) throws { try encode(Double(value)) }
    mutating func encode(_ value: Int) throws { box.items.append(.int(Int64(value))) }
    mutating func encode(_ value: Int8) throws { box.items.append(.int(Int64(value))) }
    mutating func encode(_ value: Int16) throws { box.items.append(.int(Int64(value))) }
    mutating func encode(_ value: Int32) throws { box.items.append(.int(Int64(value))) }
    mutating func encode(_ value: Int64) throws { box.items.append(.int(value)) }
    mutating func encode(_ value: UInt) throws { box.items.append(.uint(UInt64(value))) }
    mutating func encode(_ value: UInt8) throws { box.items.append(.uint(UInt64(value))) }
    mutating func encode(_ value: UInt16) throws { box.items.append(.uint(UInt64(value))) }
    mutating func encode(_ value: UInt32) throws { box.items.append(.uint(UInt64(value))) }
    mutating func encode(_ value: UInt64) throws { box.items.append(.uint(value)) }
    mutating func encode<T: Encodable>(_ value: T) throws { box.items.append(try JSONTreeEncoder.nested(value, codingPath: nextPath)) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let path = nextPath
        let child = JSONObjectBox()
        box.items.append(.object(child))
        return KeyedEncodingContainer(JSONKeyedContainer<NestedKey>(box: child, codingPath: path))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let path = nextPath
        let child = JSONArrayBox()
        box.items.append(.array(child))
        return JSONUnkeyedContainer(box: child, codingPath: path)
    }

    mutating func superEncoder() -> any Encoder {
        let box = box
        let index = box.items.count
        box.items.append(.object(JSONObjectBox()))
        return JSONTreeEncoder(codingPath: nextPath) { box.items[index] = $0 }
    }
}

private struct JSONSingleValueContainer: SingleValueEncodingContainer {
    let encoder: JSONTreeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil() throws { encoder.root = .null }
    mutating func encode(_ value: Bool) throws { encoder.root = .bool(value) }
    mutating func encode(_ value: String) throws { encoder.root = .string(value) }
    mutating func encode(_ value: Double) throws { encoder.root = try JSONTreeEncoder.double(value, codingPath: codingPath) }
    mutating func encode(_ value: Float) throws { try encode(Double(value)) }
    mutating func encode(_ value: Int) throws { encoder.root = .int(Int64(value)) }
    mutating func encode(_ value: Int8) throws { encoder.root = .int(Int64(value)) }
    mutating func encode(_ value: Int16) throws { encoder.root = .int(Int64(value)) }
    mutating func encode(_ value: Int32) throws { encoder.root = .int(Int64(value)) }
    mutating func encode(_ value: Int64) throws { encoder.root = .int(value) }
    mutating func encode(_ value: UInt) throws { encoder.root = .uint(UInt64(value)) }
    mutating func encode(_ value: UInt8) throws { encoder.root = .uint(UInt64(value)) }
    mutating func encode(_ value: UInt16) throws { encoder.root = .uint(UInt64(value)) }
    mutating func encode(_ value: UInt32) throws { encoder.root = .uint(UInt64(value)) }
    mutating func encode(_ value: UInt64) throws { encoder.root = .uint(value) }
    mutating func encode<T: Encodable>(_ value: T) throws { encoder.root = try JSONTreeEncoder.nested(value, codingPath: codingPath) }
}

/// The one JSON string writer of ``CompactJSONEncoder`` and ``JSONValue``'s serialization.
enum JSONString {
    private static let hex = Array("0123456789abcdef".utf8)

    /// Appends `string` as a JSON string: quotes, backslashes and control characters escaped (the short forms where
    /// JSON has one), slashes and non-ASCII text as they are.
    static func append(_ string: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var text = string
        text.withUTF8 { bytes in
            var start = 0
            for (index, byte) in bytes.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                out.append(contentsOf: bytes[start..<index])
                start = index + 1
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), byte])
                case 0x08: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
                case 0x0C: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
                case 0x0A: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
                case 0x0D: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
                case 0x09: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
                default: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), 48, 48, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
                }
            }
            out.append(contentsOf: bytes[start...])
        }
        out.append(UInt8(ascii: "\""))
    }
}
