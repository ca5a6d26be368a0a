import FlintCore
import Foundation
import Testing

@Suite("The compact JSON encoder writes what Foundation's JSONEncoder writes")
struct CompactJSONEncoderTests {
    struct Provider: Codable, Equatable {
        var providerId: String
        var rawId: String?
        var federatedId: String?
    }

    struct Account: Codable, Equatable {
        var localId: String
        var email: String?
        var emailVerified: Bool
        var createdAt: String
        var validSince: Int64
        var ratio: Double
        var small: Float
        var counts: [UInt8]
        var providerUserInfo: [Provider]
        var claims: [String: JSONValue]
        var nothing: [String: String]
        var nested: [[Int]]
        var link: URL
        var blob: Data
    }

    /// A reply that flattens two parts into one object, as `SignInReply` does.
    struct Flattened: Encodable {
        var fields: Provider
        var token: String?

        private enum CodingKeys: String, CodingKey { case idToken }

        func encode(to encoder: any Encoder) throws {
            try fields.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(token, forKey: .idToken)
        }
    }

    /// A type encoding through nested and super encoders.
    struct Unusual: Encodable {
        private enum Keys: String, CodingKey { case a, b, inner }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(1, forKey: .a)
            var inner = container.nestedContainer(keyedBy: Keys.self, forKey: .inner)
            try inner.encode("x", forKey: .b)
            var list = container.nestedUnkeyedContainer(forKey: .b)
            try list.encode(true)
            try list.encodeNil()
            try "sup".encode(to: container.superEncoder())
            try container.encode(2, forKey: .a)
        }
    }

    static let account = Account(
        localId: "u1", email: "a\"b\\c/d\n\t\u{01}é😀@example.com", emailVerified: true, createdAt: "1700000000000", validSince: -42,
        ratio: 0.1, small: 2.5, counts: [0, 255], providerUserInfo: [Provider(providerId: "phone", rawId: "+1650", federatedId: nil)],
        claims: ["admin": true, "level": .number(3), "pi": .number(3.25), "tags": ["x", .null], "o": ["k": "v"]], nothing: [:],
        nested: [[], [1, 2]],
        link: URL(string: "https://example.com/a/b?c=d")!, blob: Data([0, 1, 2, 250]))

    func foundation(_ value: some Encodable) throws -> JSONValue {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return try JSONValue(parsing: Array(try encoder.encode(value)))
    }

    func compact(_ value: some Encodable) throws -> JSONValue {
        try JSONValue(parsing: try CompactJSONEncoder().encode(value))
    }

    @Test("a wire-shaped value encodes to the same JSON as Foundation's (strings, numbers, optionals, arrays, maps, URL, Data)")
    func sameAsFoundation() throws {
        #expect(try compact(Self.account) == foundation(Self.account))
        #expect(
            try compact(Flattened(fields: Provider(providerId: "p"), token: "t"))
                == foundation(Flattened(fields: Provider(providerId: "p"), token: "t")))
        #expect(try compact(Unusual()) == foundation(Unusual()))
        #expect(try compact(["a": [1, 2]]) == foundation(["a": [1, 2]]))
        #expect(try compact([String]()) == foundation([String]()))
    }

    @Test("the text is compact, members keep their encoding order, slashes stay, integral doubles lose their fraction")
    func text() throws {
        let value = Flattened(fields: Provider(providerId: "a/b", rawId: "r", federatedId: nil), token: "t")
        #expect(String(decoding: try CompactJSONEncoder().encode(value), as: UTF8.self) == #"{"providerId":"a/b","rawId":"r","idToken":"t"}"#)
        #expect(String(decoding: try CompactJSONEncoder().encode([3600.0, 0.5, -0.0]), as: UTF8.self) == "[3600,0.5,-0]")
        #expect(String(decoding: try CompactJSONEncoder().encode("\u{08}\u{0C}\u{1F}"), as: UTF8.self) == #""\b\f\u001f""#)
        #expect(
            String(decoding: try CompactJSONEncoder().encode(Unusual()), as: UTF8.self) == #"{"a":2,"inner":{"b":"x"},"b":[true,null],"super":"sup"}"#
        )
    }

    @Test("non-finite numbers and a top-level value with nothing in it are refused, as Foundation refuses them")
    func refusals() throws {
        #expect(throws: EncodingError.self) { try CompactJSONEncoder().encode([Double.nan]) }
        #expect(throws: EncodingError.self) { try CompactJSONEncoder().encode(["x": Double.infinity]) }
        struct Empty: Encodable { func encode(to encoder: any Encoder) throws {} }
        #expect(throws: EncodingError.self) { try CompactJSONEncoder().encode(Empty()) }
        #expect(try compactText([Empty()]) == "[{}]")
    }

    func compactText(_ value: some Encodable) throws -> String { String(decoding: try CompactJSONEncoder().encode(value), as: UTF8.self) }

    @Test("sorted serialization of a JSON value orders every object's keys")
    func sortedSerialization() {
        let value = JSONValue.object(["b": .number(1), "a": ["d": .number(1), "c": .number(2)], "A": "x"])
        #expect(String(decoding: value.serialized(sortingKeys: true), as: UTF8.self) == #"{"A":"x","a":{"c":2,"d":1},"b":1}"#)
    }
}
