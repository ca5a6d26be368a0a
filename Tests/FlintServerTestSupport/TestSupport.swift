package import FlintCore
package import FlintServer
package import FlintStore
package import FlintTesting
import Foundation
package import HTTPTypes
import Hummingbird
package import HummingbirdTesting
import Logging
import NIOCore
import Testing

/// The project every test node serves.
package let project = "demo-flint"

/// A real (non-fictional) number used across the suites, and a second one.
package let alice = "+16505553434"
package let bob = "+16505550101"

/// Firebase's paths, as the SDKs address the emulator.
package enum Path {
    package static let v1 = "/identitytoolkit.googleapis.com/v1"
    package static let v3 = "/www.googleapis.com/identitytoolkit/v3/relyingparty"
    package static let v2 = "/identitytoolkit.googleapis.com/v2/accounts"
    package static let send = "\(v1)/accounts:sendVerificationCode"
    package static let signIn = "\(v1)/accounts:signInWithPhoneNumber"
    package static let lookup = "\(v1)/accounts:lookup"
    package static let delete = "\(v1)/accounts:delete"
    package static let token = "/securetoken.googleapis.com/v1/token"
    package static let config = "/identitytoolkit.googleapis.com/admin/v2/projects/\(project)/config"
    package static let codes = "/emulator/v1/projects/\(project)/verificationCodes"
    package static let outbox = "/emulator/v1/projects/\(project)/outbox"
    package static let accounts = "/emulator/v1/projects/\(project)/accounts"
    package static let x509 = "/www.googleapis.com/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com"
    package static let jwks = "/www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com"
    package static let wellKnownJWKS = "/.well-known/jwks.json"
}

/// One HTTP answer, with its body parsed as JSON when it is JSON.
package struct Reply: Sendable {
    package let status: HTTPResponse.Status
    package let headers: HTTPFields
    package let text: String

    package init(status: HTTPResponse.Status, headers: HTTPFields, text: String) {
        (self.status, self.headers, self.text) = (status, headers, text)
    }

    /// The body as JSON (`.null` when it is not JSON).
    package var json: JSONValue { (try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))) ?? .null }

    /// A top-level member.
    package subscript(_ key: String) -> JSONValue? { json[key] }

    /// A top-level string member.
    package func string(_ key: String) -> String? { json[key]?.stringValue }

    /// `error.message`, e.g. `INVALID_PHONE_NUMBER : Invalid format.`
    package var errorMessage: String? { json["error"]?["message"]?.stringValue }

    /// The Firebase code: `error.message` up to `" : "`.
    package var errorCode: String? {
        guard let message = errorMessage else { return nil }
        return message.components(separatedBy: " : ").first
    }
}

/// A Flint node built in-process for one test, on an in-memory store unless a file is named, serving the API and
/// `modules` (FlintConsoleTests' nodes serve the console).
package struct TestNode: Sendable {
    package let server: FlintServer
    package let clock: ManualClock
    package let store: SQLiteStore
    /// Every write the node ends, when `make` built it (``afterWrites(until:)``).
    package var writes = EventLog<Void>()

    package init(server: FlintServer, clock: ManualClock, store: SQLiteStore, writes: EventLog<Void> = EventLog<Void>()) {
        (self.server, self.clock, self.store, self.writes) = (server, clock, store, writes)
    }

    /// A node; `writes` is told of its every write (give two nodes one log to wait for work either may do).
    package static func make(
        path: String? = nil, clock: ManualClock = ManualClock(Instant(Date())), sms: (any SMSSender)? = nil, email: (any EmailSender)? = nil,
        push: (any PushSender)? = nil, modules: [any ServerModule] = [], writes: EventLog<Void> = EventLog<Void>(),
        configure: (inout ServerSettings) -> Void = { _ in }
    ) async throws -> TestNode {
        var logger = Logger(label: "flint-test")
        logger.logLevel = .warning
        let store = try await SQLiteStore(path: path, replayingWrites: true, logger: logger)
        var settings = ServerSettings()
        settings.port = 0
        // The cheapest scrypt cost Flint accepts keeps password tests fast; the default is benchmarked.
        settings.passwordHashParameters = PasswordHashParameters(logN: 10)
        configure(&settings)
        let server = try await FlintServer(
            settings: settings, store: WriteSignallingStore(base: store, ended: writes), clock: clock, sms: sms, email: email, push: push,
            logger: logger, modules: modules)
        return TestNode(server: server, clock: clock, store: store, writes: writes)
    }

    /// Runs `body` against the router, then closes the store.
    package func run<T: Sendable>(_ body: @escaping @Sendable (API) async throws -> T) async throws -> T {
        let clock = self.clock
        let result: T
        do {
            result = try await server.application.test(.router) { client in try await body(API(client: client, clock: clock)) }
        } catch {
            try? await store.close()
            throw error
        }
        try await store.close()
        return result
    }
}

/// Builds a fresh node and runs `body` against it.
package func withFlint<T: Sendable>(
    clock: ManualClock = ManualClock(Instant(Date())), modules: [any ServerModule] = [], configure: (inout ServerSettings) -> Void = { _ in },
    _ body: @escaping @Sendable (API) async throws -> T
) async throws -> T {
    try await TestNode.make(clock: clock, modules: modules, configure: configure).run(body)
}

/// A temporary database file path, unique per call.
package func temporaryDatabasePath() -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("flint-server-test-\(UUID().uuidString).sqlite").path
}

/// A signed-in user as `signInWithPhoneNumber` answered.
package struct SignedIn: Sendable {
    package let idToken: String
    package let refreshToken: String
    package let localId: String
    package let reply: Reply

    package init(idToken: String, refreshToken: String, localId: String, reply: Reply) {
        (self.idToken, self.refreshToken, self.localId, self.reply) = (idToken, refreshToken, localId, reply)
    }
}

/// The client side of a test: requests with the API key, the dev helpers, whole flows.
package struct API: Sendable {
    package let client: any TestClientProtocol
    package let clock: ManualClock

    package init(client: any TestClientProtocol, clock: ManualClock) {
        (self.client, self.clock) = (client, clock)
    }

    /// Any request; `body` is sent as is.
    package func call(
        _ method: HTTPRequest.Method, _ uri: String, body: String? = nil, contentType: String? = "application/json",
        headers: HTTPFields = [:]
    ) async throws -> Reply {
        var fields = headers
        if body != nil, let contentType { fields[.contentType] = contentType }
        let response = try await client.execute(uri: uri, method: method, headers: fields, body: body.map { ByteBuffer(string: $0) })
        return Reply(status: response.status, headers: response.headers, text: String(buffer: response.body))
    }

    /// `path?key=test`.
    package static func keyed(_ path: String) -> String { path + (path.contains("?") ? "&" : "?") + "key=test" }

    /// POSTs a JSON object of string fields with the API key.
    package func post(_ path: String, _ fields: [String: String], headers: HTTPFields = [:]) async throws -> Reply {
        try await postRaw(path, try Self.json(fields), headers: headers)
    }

    /// POSTs a raw JSON text with the API key.
    package func postRaw(_ path: String, _ body: String, contentType: String = "application/json", headers: HTTPFields = [:]) async throws -> Reply {
        try await call(.post, Self.keyed(path), body: body, contentType: contentType, headers: headers)
    }

    /// POSTs a JSON body with nested objects with the API key.
    package func postJSON(_ path: String, _ object: [String: Any]) async throws -> Reply {
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        return try await postRaw(path, String(decoding: data, as: UTF8.self))
    }

    /// A request carrying the admin credential (`Authorization: Bearer owner`) and no API key.
    package func admin(_ method: HTTPRequest.Method, _ path: String, body: String? = nil) async throws -> Reply {
        try await call(method, path, body: body, headers: [.authorization: "Bearer owner"])
    }

    package static func json(_ fields: [String: String]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(fields), as: UTF8.self)
    }

    // MARK: Flows

    /// Sends a code and returns `sessionInfo` (the request must succeed).
    package func sendCode(_ phone: String, headers: HTTPFields = [:], path: String = Path.send) async throws -> String {
        let reply = try await post(path, ["phoneNumber": phone], headers: headers)
        #expect(reply.status == .ok, "sendVerificationCode failed: \(reply.text)")
        return try #require(reply.string("sessionInfo"))
    }

    /// The pending codes listed by the dev helper.
    package func pendingCodes() async throws -> [JSONValue] {
        let reply = try await call(.get, Path.codes)
        #expect(reply.status == .ok)
        guard case .array(let list)? = reply["verificationCodes"] else { return [] }
        return list
    }

    /// The newest pending code for `phone` (E.164).
    package func pendingCode(for phone: String) async throws -> String {
        let entry = try await pendingCodes().last { $0["phoneNumber"]?.stringValue == phone }
        return try #require(entry?["code"]?.stringValue, "no pending code for \(phone)")
    }

    /// The dev outbox, oldest first.
    package func outbox() async throws -> [JSONValue] {
        let reply = try await call(.get, Path.outbox)
        #expect(reply.status == .ok)
        guard case .array(let list)? = reply["messages"] else { return [] }
        return list
    }

    /// Finishes a sign-in with `signInWithPhoneNumber`.
    package func verify(_ sessionInfo: String, code: String, extra: [String: String] = [:], path: String = Path.signIn) async throws -> Reply {
        try await post(path, ["sessionInfo": sessionInfo, "code": code].merging(extra) { $1 })
    }

    /// A whole real-number sign-in: send, read the code from the dev helper, verify.
    package func signIn(_ phone: String, normalized: String? = nil, extra: [String: String] = [:]) async throws -> SignedIn {
        let sessionInfo = try await sendCode(phone)
        let code = try await pendingCode(for: normalized ?? phone)
        return try Self.signedIn(try await verify(sessionInfo, code: code, extra: extra))
    }

    /// Reads the tokens of a successful sign-in answer.
    package static func signedIn(_ reply: Reply) throws -> SignedIn {
        #expect(reply.status == .ok, "sign-in failed: \(reply.text)")
        return SignedIn(
            idToken: try #require(reply.string("idToken")), refreshToken: try #require(reply.string("refreshToken")),
            localId: try #require(reply.string("localId")), reply: reply
        )
    }

    /// Replaces the fictional test numbers through the admin API.
    package func setTestNumbers(_ numbers: [String: String]) async throws {
        let body = #"{"signIn":{"phoneNumber":{"testPhoneNumbers":\#(try Self.json(numbers))}}}"#
        let reply = try await admin(.patch, Path.config + "?updateMask=signIn.phoneNumber.testPhoneNumbers", body: body)
        #expect(reply.status == .ok, "config PATCH failed: \(reply.text)")
    }

    /// `accounts:lookup` with an ID token.
    package func lookup(_ idToken: String, path: String = Path.lookup) async throws -> Reply {
        try await post(path, ["idToken": idToken])
    }

    /// The refresh grant, JSON body.
    package func refresh(_ refreshToken: String) async throws -> Reply {
        try await post(Path.token, ["grant_type": "refresh_token", "refresh_token": refreshToken])
    }
}

/// Decoding the parts of a compact JWS.
package enum JWT {
    package static func part(_ token: String, _ index: Int) throws -> [String: JSONValue] {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        try #require(parts.count == 3, "not a compact JWS")
        let bytes = try #require(Base64URL.decode(parts[index]))
        return try JSONDecoder().decode([String: JSONValue].self, from: Data(bytes))
    }

    package static func header(_ token: String) throws -> [String: JSONValue] { try part(token, 0) }
    package static func payload(_ token: String) throws -> [String: JSONValue] { try part(token, 1) }

    /// Encodes a JSON object as a base64url JWS segment.
    package static func segment(_ object: [String: JSONValue]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return Base64URL.encode(try encoder.encode(object))
    }
}

extension JSONValue {
    /// The number as an integer, or `nil`.
    package var intValue: Int64? {
        if case .number(let n) = self { return Int64(n) }
        return nil
    }
}

extension String {
    /// Whether the string is a non-empty run of decimal digits.
    package var isDigits: Bool { !isEmpty && allSatisfy { $0.isASCII && $0.isNumber } }
}

/// A row of a parameterized error table.
package struct ErrorCase: Sendable, CustomTestStringConvertible {
    package let name: String
    package let body: String
    package let status: Int
    package let code: String

    package init(_ name: String, body: String, status: Int = 400, code: String) {
        self.name = name
        self.body = body
        self.status = status
        self.code = code
    }

    package var testDescription: String { name }
}
