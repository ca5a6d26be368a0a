package import FlintCore
public import Hummingbird

/// The request context's decoder: reads a body with ``WireBody/read(_:allowForm:)`` and decodes a wire type from it
/// with ``WireValueDecoder``, which is as lenient as Google's front end. Errors are ``AuthError``s with Firebase's
/// messages, so they render as Firebase renders them.
public struct WireDecoder: RequestDecoder {
    public init() {}

    /// Decodes `type` from the body of `request`; a type that is ``FormDecodable`` also accepts a form body.
    /// - Throws: ``AuthError`` (`PAYLOAD_TOO_LARGE`, or `INVALID_ARGUMENT` for a body that is not a JSON object or
    ///   has a field of the wrong type).
    public func decode<T: Decodable>(_ type: T.Type, from request: Request, context: some RequestContext) async throws -> T {
        let body = try await WireBody.read(request, allowForm: type is any FormDecodable.Type)
        return try Self.decode(type, from: body.fields)
    }

    /// Decodes `type` from the members of a parsed body.
    package static func decode<T: Decodable>(_ type: T.Type, from fields: [String: JSONValue]) throws -> T {
        try WireValueDecoder(.object(fields), field: "").decode(type)
    }
}

/// A wire type that may also come as `application/x-www-form-urlencoded` (Secure Token's refresh request).
protocol FormDecodable: Decodable {}

/// Decodes one value of a body by proto3's JSON rules as Google's front end applies them:
/// - keys are accepted in `snake_case` for `camelCase`; unknown keys are ignored;
/// - a missing or `null` field is absent (`nil` for optionals, else the field's default: `""`, `false`, `0`, `[]`);
/// - numbers and booleans in a string field are stringified; `"true"` / `"false"` are booleans;
/// - a repeated field may be a single string (a one-element list); its elements must be strings;
/// - ``JSONValue`` fields keep the value as sent.
///
/// A value of the wrong type is `INVALID_ARGUMENT` naming the field in `snake_case`:
/// `Invalid value at 'phone_number' (TYPE_STRING), {...}`.
struct WireValueDecoder: Decoder, SingleValueDecodingContainer {
    let value: JSONValue
    /// The field's name as the body spelled it (camelCase); a list's elements carry the list's name.
    let field: String
    /// List elements: only strings are strings.
    let isElement: Bool
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(_ value: JSONValue, field: String, isElement: Bool = false) {
        self.value = value
        self.field = field
        self.isElement = isElement
    }

    // MARK: Decoder

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        switch value {
        case .null: return KeyedDecodingContainer(WireKeyedContainer<Key>(fields: [:]))
        case .object(let members): return KeyedDecodingContainer(WireKeyedContainer<Key>(fields: WireBody(fields: members).fields))
        default: throw wrongType("message")
        }
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        switch value {
        case .null: return WireListContainer(items: [], field: field)
        case .string: return WireListContainer(items: [value], field: field)
        case .array(let items): return WireListContainer(items: items, field: field)
        default: throw WireListContainer.invalid(field)
        }
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    // MARK: Scalars

    func decodeNil() -> Bool { value == .null }

    func decode(_ type: String.Type) throws -> String {
        switch value {
        case .null where !isElement: return ""
        case .string(let text): return text
        case .number(let n) where !isElement: return n.rounded() == n && abs(n) < 1e15 ? String(Int64(n)) : String(n)
        case .bool(let b) where !isElement: return String(b)
        default: throw isElement ? WireListContainer.invalid(field) : wrongType("TYPE_STRING")
        }
    }

    func decode(_ type: Bool.Type) throws -> Bool {
        switch value {
        case .null: return false
        case .bool(let b): return b
        case .string("true"): return true
        case .string("false"): return false
        default: throw wrongType("TYPE_BOOL")
        }
    }

    func decode(_ type: Double.Type) throws -> Double {
        switch value {
        case .null: return 0
        case .number(let n): return n
        case .string(let text): if let n = Double(text) { return n }
        default: break
        }
        throw wrongType("TYPE_DOUBLE")
    }

    func decode(_ type: Float.Type) throws -> Float { Float(try decode(Double.self)) }

    /// Integers as numbers or as strings of digits (proto3 writes 64-bit integers as strings).
    func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        switch value {
        case .null: return 0
        case .number(let n): if n.rounded() == n, let exact = T(exactly: n) { return exact }
        case .string(let text): if let parsed = T(text) { return parsed }
        default: break
        }
        throw wrongType(T.bitWidth > 32 ? "TYPE_INT64" : "TYPE_INT32")
    }

    func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if let raw = value as? T { return raw }
        return try T(from: self)
    }

    /// `Invalid value at 'field' (EXPECTED), KIND`, as Google words a field of the wrong type.
    func wrongType(_ expected: String) -> AuthError {
        let got = value.kindName == "object" ? "{...}" : value.kindName
        return AuthError.invalidJSON("Invalid value at '\(WireBody.snakeCase(field))' (\(expected)), \(got)")
    }
}

/// The members of a body object, keys already in camelCase.
struct WireKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let fields: [String: JSONValue]
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { fields.keys.compactMap(Key.init(stringValue:)) }

    func contains(_ key: Key) -> Bool { fields[key.stringValue] != nil }
    func decodeNil(forKey key: Key) throws -> Bool { (fields[key.stringValue] ?? .null) == .null }

    /// The decoder of one member (`null` when absent).
    func member(_ key: Key) -> WireValueDecoder { WireValueDecoder(fields[key.stringValue] ?? .null, field: key.stringValue) }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try member(key).decode(type) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try member(key).decode(type) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try member(key).decode(type) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try member(key).decode(type) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try member(key).decode(type) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try member(key).decode(type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try member(key).decode(type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try member(key).decode(type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try member(key).decode(type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try member(key).decode(type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try member(key).decode(type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try member(key).decode(type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try member(key).decode(type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try member(key).decode(type) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try member(key).decode(type) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try member(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { try member(key).unkeyedContainer() }
    func superDecoder() throws -> any Decoder { WireValueDecoder(.object(fields), field: "") }
    func superDecoder(forKey key: Key) throws -> any Decoder { member(key) }
}

/// A repeated field's elements. On Firebase's wire these are lists of strings.
struct WireListContainer: UnkeyedDecodingContainer {
    let items: [JSONValue]
    let field: String
    var codingPath: [any CodingKey] { [] }
    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }
    private(set) var currentIndex = 0

    init(items: [JSONValue], field: String) {
        self.items = items
        self.field = field
    }

    /// `Invalid value at 'field' (TYPE_STRING)`: a list (or an element) that is not a string.
    static func invalid(_ field: String) -> AuthError {
        AuthError.invalidJSON("Invalid value at '\(WireBody.snakeCase(field))' (TYPE_STRING)")
    }

    /// The next element's decoder.
    mutating func next() throws -> WireValueDecoder {
        guard !isAtEnd else { throw Self.invalid(field) }
        defer { currentIndex += 1 }
        return WireValueDecoder(items[currentIndex], field: field, isElement: true)
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, items[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next().decode(type) }
    mutating func decode(_ type: String.Type) throws -> String { try next().decode(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try next().decode(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try next().decode(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try next().decode(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try next().decode(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try next().decode(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try next().decode(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try next().decode(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try next().decode(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next().decode(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next().decode(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next().decode(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next().decode(type) }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next().decode(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next().unkeyedContainer() }
    mutating func superDecoder() throws -> any Decoder { try next() }
}
