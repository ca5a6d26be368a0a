import FlintCore
import FlintServerTestSupport
import Testing

@testable import FlintServer

@Suite("Wire decoder: proto3 JSON as Google's front end reads it")
struct WireDecoderTests {
    /// A wire type with every shape the endpoints use.
    struct Sample: Decodable, Equatable {
        struct Inner: Decodable, Equatable {
            var sessionInfo: String?
            var code: String?
        }
        var phoneNumber: String?
        var isSandbox: Bool
        var returnSecureToken: Bool?
        var localId: [String]
        var inner: Inner?
        var count: Int64?
        var raw: JSONValue?
    }

    /// Decodes `json` (an object) as a ``Sample``.
    func decode(_ json: String) throws -> Sample { try decode(Sample.self, json) }

    /// Decodes `json` (an object) as `T`.
    func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
        let fields = try #require(try JSONValue(parsing: Array(json.utf8)).objectValue)
        return try WireDecoder.decode(type, from: WireBody(fields: fields).fields)
    }

    /// The message of the `AuthError` decoding `json` throws.
    func failure(_ json: String) -> String? {
        do {
            _ = try decode(Sample.self, json)
            return nil
        } catch let error as AuthError {
            return error.message
        } catch {
            return "\(error)"
        }
    }

    @Test("an empty object gives absent optionals and proto3 defaults")
    func defaults() throws {
        let sample = try decode("{}")
        #expect(sample == Sample(phoneNumber: nil, isSandbox: false, returnSecureToken: nil, localId: [], inner: nil, count: nil, raw: nil))
    }

    @Test("null is absent")
    func nulls() throws {
        let sample = try decode(#"{"phoneNumber":null,"isSandbox":null,"localId":null,"inner":null,"raw":null}"#)
        #expect(sample.phoneNumber == nil)
        #expect(sample.isSandbox == false)
        #expect(sample.localId.isEmpty)
        #expect(sample.inner == nil)
        #expect(sample.raw == nil)
    }

    @Test("snake_case keys are read as camelCase, at every level")
    func snakeCase() throws {
        let sample = try decode(#"{"phone_number":"+1","is_sandbox":true,"local_id":"a","inner":{"session_info":"s"}}"#)
        #expect(sample.phoneNumber == "+1")
        #expect(sample.isSandbox)
        #expect(sample.localId == ["a"])
        #expect(sample.inner?.sessionInfo == "s")
    }

    @Test(
        "a key whose letter after `_` upper-cases to several characters is kept whole, not a crash",
        arguments: [("a_ß", "aSS"), ("x_ŉ", "xʼN"), ("_ß", "ß"), ("ﬁ_ﬂ", "ﬁFL")])
    func multiCharacterCaseMapping(_ key: String, _ camel: String) throws {
        #expect(WireBody.camelCase(key) == camel)
        #expect(WireBody.snakeCase("\u{130}x") == "_i\u{307}x")
        let sample = try decode(#"{"phone_number":"+1","\#(key)":1,"inner":{"\#(key)":{"\#(key)":[]}}}"#)
        #expect(sample.phoneNumber == "+1")
    }

    @Test(
        "numbers and booleans in string fields are stringified",
        arguments: [
            (#"123456"#, "123456"), (#"1.5"#, "1.5"), (#"true"#, "true"), (#"-7"#, "-7"),
        ])
    func stringified(_ json: String, _ expected: String) throws {
        #expect(try decode(#"{"phoneNumber":\#(json)}"#).phoneNumber == expected)
        #expect(try decode(#"{"inner":{"code":\#(json)}}"#).inner?.code == expected)
    }

    @Test("\"true\" and \"false\" are booleans")
    func stringBooleans() throws {
        #expect(try decode(#"{"isSandbox":"true"}"#).isSandbox)
        #expect(try decode(#"{"returnSecureToken":"false"}"#).returnSecureToken == false)
    }

    @Test("a repeated field takes a list or a single string")
    func lists() throws {
        #expect(try decode(#"{"localId":["a","b"]}"#).localId == ["a", "b"])
        #expect(try decode(#"{"localId":"a"}"#).localId == ["a"])
    }

    @Test("integers come as numbers or strings of digits")
    func integers() throws {
        #expect(try decode(#"{"count":42}"#).count == 42)
        #expect(try decode(#"{"count":"42"}"#).count == 42)
    }

    @Test("JSONValue fields keep what was sent")
    func raw() throws {
        #expect(try decode(#"{"raw":{"a_b":[1,"x"]}}"#).raw == .object(["a_b": .array([.number(1), .string("x")])]))
        #expect(try decode(#"{"raw":"true"}"#).raw == "true")
    }

    static let wrongTypes: [(String, String)] = [
        (#"{"phoneNumber":{}}"#, "Invalid JSON payload received. Invalid value at 'phone_number' (TYPE_STRING), {...}"),
        (#"{"phoneNumber":[1]}"#, "Invalid JSON payload received. Invalid value at 'phone_number' (TYPE_STRING), list"),
        (#"{"isSandbox":1}"#, "Invalid JSON payload received. Invalid value at 'is_sandbox' (TYPE_BOOL), TYPE_NUMBER"),
        (#"{"isSandbox":"yes"}"#, "Invalid JSON payload received. Invalid value at 'is_sandbox' (TYPE_BOOL), TYPE_STRING"),
        (#"{"inner":"x"}"#, "Invalid JSON payload received. Invalid value at 'inner' (message), TYPE_STRING"),
        (#"{"inner":{"code":{}}}"#, "Invalid JSON payload received. Invalid value at 'code' (TYPE_STRING), {...}"),
        (#"{"localId":{}}"#, "Invalid JSON payload received. Invalid value at 'local_id' (TYPE_STRING)"),
        (#"{"localId":["a",1]}"#, "Invalid JSON payload received. Invalid value at 'local_id' (TYPE_STRING)"),
        (#"{"localId":["a",null]}"#, "Invalid JSON payload received. Invalid value at 'local_id' (TYPE_STRING)"),
        (#"{"count":1.5}"#, "Invalid JSON payload received. Invalid value at 'count' (TYPE_INT64), TYPE_NUMBER"),
    ]

    @Test("a value of the wrong type is Google's INVALID_ARGUMENT naming the field", arguments: wrongTypes)
    func wrongType(_ json: String, _ message: String) {
        #expect(failure(json) == message)
    }

    @Test("a SendOobCode request type is read by name or number, and anything else refused without echo")
    func oobRequestType() throws {
        #expect(try decode(SendOobCodeRequest.self, #"{"requestType":"EMAIL_SIGNIN"}"#).requestType?.name == "EMAIL_SIGNIN")
        #expect(try decode(SendOobCodeRequest.self, #"{"request_type":4}"#).requestType?.name == "VERIFY_EMAIL")
        #expect(try decode(SendOobCodeRequest.self, #"{"requestType":null}"#).requestType == nil)
        #expect(throws: AuthError.self) { try decode(SendOobCodeRequest.self, #"{"requestType":"NOPE"}"#) }
        #expect(throws: AuthError.self) { try decode(SendOobCodeRequest.self, #"{"requestType":9}"#) }
    }

    @Test("the phone sign-in operation is read by name or number; absent is SIGN_UP_OR_IN")
    func operation() throws {
        #expect(try decode(SignInWithPhoneNumberRequest.self, "{}").operation == .signUpOrIn)
        #expect(try decode(SignInWithPhoneNumberRequest.self, #"{"operation":2}"#).operation == .reauth)
        #expect(try decode(SignInWithPhoneNumberRequest.self, #"{"operation":"LINK"}"#).operation == .link)
        #expect(throws: AuthError.self) { try decode(SignInWithPhoneNumberRequest.self, #"{"operation":"SOMETIMES"}"#) }
    }

    @Test("an app proof is read beside the other fields; empty fields are absent")
    func appProof() throws {
        let wire = try decode(SendVerificationCodeRequest.self, #"{"phoneNumber":"+1","iosReceipt":"r","iosSecret":"","recaptcha_token":"t"}"#)
        #expect(wire.phoneNumber == "+1")
        #expect(wire.proof == AppProof(iosReceipt: "r", iosSecret: nil, recaptchaToken: "t"))
    }
}
