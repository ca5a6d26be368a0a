import FlintCore
import Foundation
import Testing

@Suite("JSON reading and writing")
struct JSONParsingTests {
    func parse(_ text: String) throws -> JSONValue { try JSONValue(parsing: Array(text.utf8)) }

    @Test("objects, arrays, literals and numbers parse as Foundation reads them")
    func values() throws {
        let v = try parse(#" {"a": [1, -2.5, 3e2, true, false, null], "b": {"c": "d"}, "e": 0} "#)
        #expect(v["a"] == .array([.number(1), .number(-2.5), .number(300), .bool(true), .bool(false), .null]))
        #expect(v["b"]?["c"] == .string("d"))
        #expect(v["e"] == .number(0))
    }

    @Test("string escapes, including surrogate pairs, decode")
    func escapes() throws {
        let v = try parse(#"{"s": "a\"b\\c\/d\n\t\u00e9\ud83d\ude00 zh 中文"}"#)
        #expect(v["s"] == .string("a\"b\\c/d\n\té😀 zh 中文"))
    }

    @Test(
        "malformed texts are refused",
        arguments: [
            "", "{", "{\"a\"}", "{\"a\":}", "[1,]", "{\"a\":1,}", "01", "1.", "-", "tru", "nul", "\"abc", "\"\\x\"", "\"\\ud800\"",
            "{} {}", "{\"a\":1} x", "\"a\u{01}b\"", "[1 2]", "'a'", "+1", ".5", "1e",
        ]
    )
    func malformed(text: String) {
        #expect(throws: JSONValue.ParseError.self) { try JSONValue(parsing: Array(text.utf8)) }
    }

    @Test("deep nesting is refused instead of exhausting the stack")
    func depth() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: JSONValue.ParseError.self) { try JSONValue(parsing: Array(deep.utf8)) }
        let ok = String(repeating: "[", count: 60) + String(repeating: "]", count: 60)
        #expect(throws: Never.self) { try JSONValue(parsing: Array(ok.utf8)) }
    }

    @Test("invalid UTF-8 is refused")
    func invalidUTF8() {
        #expect(throws: JSONValue.ParseError.self) { try JSONValue(parsing: [0x22, 0xFF, 0xFE, 0x22]) }
    }

    @Test("what is written reads back the same, through this parser and through Foundation's")
    func roundTrip() throws {
        let value: JSONValue = [
            "iss": "https://securetoken.google.com/p", "n": .number(1_800_000_000), "f": .number(1.25), "t": true, "z": .null,
            "q": "quote \" backslash \\ newline \n tab \t ctl \u{01} é 😀", "list": ["a", .number(-3)], "o": ["k": "v"],
        ]
        let bytes = value.serialized()
        #expect(try JSONValue(parsing: bytes) == value)
        #expect(try JSONDecoder().decode(JSONValue.self, from: Data(bytes)) == value)
        #expect(!String(decoding: bytes, as: UTF8.self).contains("\\/"), "slashes are not escaped")
    }
}
