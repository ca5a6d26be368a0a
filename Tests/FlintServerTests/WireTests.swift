import FlintCore
import FlintServerTestSupport
import Foundation
import Hummingbird
import Testing

@testable import FlintServer

@Suite("Wire: API key, credentials, errors, body limits, lenient parsing")
struct WireTests {
    @Test("a request without an API key is 403 with Firebase's text and PERMISSION_DENIED")
    func missingAPIKey() async throws {
        try await withFlint { api in
            let reply = try await api.call(.post, Path.send, body: try API.json(["phoneNumber": alice]))
            #expect(reply.status == .forbidden)
            let error = reply["error"]
            #expect(error?["code"]?.intValue == 403)
            #expect(error?["message"]?.stringValue == "The request is missing a valid API key.")
            #expect(error?["status"]?.stringValue == "PERMISSION_DENIED")
            #expect(error?["errors"]?.arrayValue?.first?["reason"]?.stringValue == "forbidden")
            #expect(try await api.outbox().isEmpty)
        }
    }

    @Test("every client endpoint demands the key", arguments: [Path.send, Path.signIn, Path.lookup, Path.delete, Path.token])
    func everyEndpointNeedsKey(_ path: String) async throws {
        try await withFlint { api in
            let reply = try await api.call(.post, path, body: "{}")
            #expect(reply.status == .forbidden)
        }
    }

    @Test("the x-goog-api-key header works in place of ?key=")
    func headerKey() async throws {
        try await withFlint { api in
            let reply = try await api.call(
                .post, Path.send, body: try API.json(["phoneNumber": alice]), headers: [.init("x-goog-api-key")!: "test-key"]
            )
            #expect(reply.status == .ok)
            #expect(reply.string("sessionInfo") != nil)
        }
    }

    @Test("Bearer owner with no API key is accepted on client endpoints (Admin SDKs send no key)")
    func ownerWithoutKey() async throws {
        try await withFlint { api in
            let reply = try await api.admin(.post, Path.send, body: try API.json(["phoneNumber": alice]))
            #expect(reply.status == .ok)
        }
    }

    @Test("Authorization: Bearer garbage is 401 UNAUTHENTICATED in Google's shape, even with a key")
    func garbageBearer() async throws {
        try await withFlint { api in
            let reply = try await api.postRaw(Path.send, try API.json(["phoneNumber": alice]), headers: [.authorization: "Bearer garbage"])
            #expect(reply.status == .unauthorized)
            let error = reply["error"]
            #expect(error?["code"]?.intValue == 401)
            #expect(error?["status"]?.stringValue == "UNAUTHENTICATED")
            #expect(error?["message"]?.stringValue?.hasPrefix("Request had invalid authentication credentials.") == true)
            let detail = error?["errors"]?.arrayValue?.first
            #expect(detail?["message"]?.stringValue == "Invalid Credentials")
            #expect(detail?["reason"]?.stringValue == "authError")
            #expect(detail?["location"]?.stringValue == "Authorization")
            #expect(detail?["locationType"]?.stringValue == "header")
        }
    }

    @Test("a user's ID token sent as a Bearer header is refused with 401")
    func idTokenAsBearer() async throws {
        try await withFlint { api in
            let signedIn = try await api.signIn(alice)
            let reply = try await api.postRaw(Path.lookup, "{}", headers: [.authorization: "Bearer \(signedIn.idToken)"])
            #expect(reply.status == .unauthorized)
        }
    }

    @Test("a non-Bearer Authorization header is ignored")
    func basicAuthIgnored() async throws {
        try await withFlint { api in
            let reply = try await api.postRaw(Path.send, try API.json(["phoneNumber": alice]), headers: [.authorization: "Basic Zm9vOmJhcg=="])
            #expect(reply.status == .ok)
        }
    }

    static let malformed: [ErrorCase] = [
        ErrorCase("truncated JSON", body: #"{"phoneNumber":"#, code: "Invalid JSON payload received."),
        ErrorCase("not JSON at all", body: "phoneNumber=+16505553434", code: "Invalid JSON payload received."),
        ErrorCase("a JSON array", body: #"["+16505553434"]"#, code: "Invalid JSON payload received."),
        ErrorCase("a JSON string", body: #""+16505553434""#, code: "Invalid JSON payload received."),
        ErrorCase("an object where a string goes", body: #"{"phoneNumber":{}}"#, code: "Invalid JSON payload received."),
        ErrorCase("a list where a string goes", body: #"{"phoneNumber":["+16505553434"]}"#, code: "Invalid JSON payload received."),
    ]

    @Test("malformed JSON and wrong field types are 400 INVALID_ARGUMENT, never 500", arguments: malformed)
    func malformedBodies(_ row: ErrorCase) async throws {
        try await withFlint { api in
            let reply = try await api.postRaw(Path.send, row.body)
            #expect(Int(reply.status.code) == row.status, "\(reply.text)")
            #expect(reply.errorMessage?.hasPrefix(row.code) == true, "\(reply.text)")
            #expect(reply["error"]?["status"]?.stringValue == "INVALID_ARGUMENT")
            #expect(try await api.outbox().isEmpty)
        }
    }

    @Test("wrong types on sign-in, lookup and refresh are 400 too")
    func wrongTypesElsewhere() async throws {
        try await withFlint { api in
            for (path, body) in [
                (Path.signIn, #"{"sessionInfo":{"a":1},"code":"123456"}"#), (Path.lookup, #"{"idToken":[1,2]}"#),
                (Path.token, #"{"grant_type":{},"refresh_token":"x"}"#), (Path.delete, "{not json"),
            ] {
                let reply = try await api.postRaw(path, body)
                #expect(reply.status == .badRequest, "\(path): \(reply.text)")
            }
        }
    }

    @Test("a body over 1 MiB is 413")
    func oversizedBody() async throws {
        try await withFlint { api in
            let padding = String(repeating: "x", count: (1 << 20) + 16)
            let reply = try await api.postRaw(Path.send, #"{"phoneNumber":"+16505553434","pad":"\#(padding)"}"#)
            #expect(reply.status == .contentTooLarge)
            #expect(reply["error"]?["code"]?.intValue == 413)
        }
    }

    @Test("a body just under 1 MiB is read")
    func largeButAllowedBody() async throws {
        try await withFlint { api in
            let padding = String(repeating: "x", count: (1 << 20) - 100)
            let reply = try await api.postRaw(Path.send, #"{"phoneNumber":"+16505553434","pad":"\#(padding)"}"#)
            #expect(reply.status == .ok)
        }
    }

    @Test("an unknown path is 404 in Firebase's shape", arguments: ["/nope", "\(Path.v1)/accounts:nothingHere"])
    func unknownPath(_ path: String) async throws {
        try await withFlint { api in
            let reply = try await api.call(.post, API.keyed(path), body: "{}")
            #expect(reply.status == .notFound)
            let error = reply["error"]
            #expect(error?["code"]?.intValue == 404)
            #expect(error?["message"]?.stringValue == "Not Found")
            #expect(error?["status"]?.stringValue == "NOT_FOUND")
            #expect(error?["errors"]?.arrayValue?.first?["reason"]?.stringValue == "notFound")
        }
    }

    @Test("unknown fields are ignored")
    func unknownFields() async throws {
        try await withFlint { api in
            let reply = try await api.postRaw(
                Path.send, #"{"phoneNumber":"+16505553434","recaptchaToken":"x","somethingNew":{"deep":[1,2,3]},"clientType":"CLIENT_TYPE_IOS"}"#
            )
            #expect(reply.status == .ok, "\(reply.text)")
        }
    }

    @Test("snake_case field names are accepted")
    func snakeCase() async throws {
        try await withFlint { api in
            let send = try await api.postRaw(Path.send, #"{"phone_number":"+16505553434"}"#)
            #expect(send.status == .ok, "\(send.text)")
            let sessionInfo = try #require(send.string("sessionInfo"))
            let code = try await api.pendingCode(for: alice)
            let reply = try await api.postRaw(Path.signIn, #"{"session_info":"\#(sessionInfo)","code":"\#(code)"}"#)
            #expect(reply.status == .ok, "\(reply.text)")
        }
    }

    @Test("a code sent as a JSON number is read as a string")
    func numericCode() async throws {
        try await withFlint { api in
            try await api.setTestNumbers([alice: "123456"])
            let sessionInfo = try await api.sendCode(alice)
            let reply = try await api.postRaw(Path.signIn, #"{"sessionInfo":"\#(sessionInfo)","code":123456}"#)
            #expect(reply.status == .ok, "\(reply.text)")
        }
    }

    @Test("an empty body is treated as an empty object")
    func emptyBody() async throws {
        try await withFlint { api in
            let reply = try await api.postRaw(Path.send, "")
            #expect(reply.errorCode == "INVALID_PHONE_NUMBER")
        }
    }

    @Test("responses are JSON with charset and CORS reflects the origin")
    func headers() async throws {
        try await withFlint { api in
            let reply = try await api.postRaw(Path.send, try API.json(["phoneNumber": alice]), headers: [.origin: "http://localhost:5173"])
            #expect(reply.headers[.contentType]?.hasPrefix("application/json") == true)
            #expect(reply.headers[.accessControlAllowOrigin] == "http://localhost:5173")
        }
    }

    @Test("form bodies decode +, %XX and leave broken escapes as written")
    func formDecoding() {
        #expect(
            FormDecoding.decode("a=1%2B2&b=x+y&c=%zz&d=%4&e=%C3%A9&=skip&f")
                == ["a": "1+2", "b": "x y", "c": "%zz", "d": "%4", "e": "é", "f": ""]
        )
    }
}
