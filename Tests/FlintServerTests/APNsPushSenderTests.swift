import AsyncHTTPClient
import Crypto
import FlintCore
import FlintServerTestSupport
import FlintTesting
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import Testing

@testable import FlintServer

/// The request the APNs sender builds (method, URL, headers, body, and a provider token that verifies with the key's
/// public half); `APNsHTTP2Tests` sends it to a local HTTP/2 + TLS stand-in.
@Suite("App verification: the APNs provider API request")
struct APNsPushSenderTests {
    static let key = P256.Signing.PrivateKey()

    func sender(clock: ManualClock) throws -> APNsPushSender {
        let credentials = try APNsProviderToken(p8: Self.key.pemRepresentation, keyID: "ABC123DEFG", teamID: "TEAM123456")
        return APNsPushSender(credentials: credentials, bundleID: "com.example.app", clock: clock, logger: Logger(label: "test"))
    }

    func push(sandbox: Bool) -> PushMessage {
        PushMessage(
            deviceToken: "0a1b2c3d", sandbox: sandbox, payload: #"{"aps":{"content-available":1}}"#, createdAt: 0)
    }

    @Test("a production push goes to api.push.apple.com with Apple's background-push headers and the payload")
    func productionRequest() async throws {
        let clock = ManualClock(Instant(secondsSince1970: 1_800_000_000))
        let request = try sender(clock: clock).makeRequest(push(sandbox: false))
        #expect(request.url == "https://api.push.apple.com/3/device/0a1b2c3d")
        #expect(request.method == .POST)
        #expect(request.headers.first(name: "apns-topic") == "com.example.app")
        #expect(request.headers.first(name: "apns-push-type") == "background")
        #expect(request.headers.first(name: "apns-priority") == "5")
        #expect(request.headers.first(name: "apns-expiration") == "1800000060")
        #expect(request.headers.first(name: "content-type") == "application/json")
        var body = ""
        for try await chunk in try #require(request.body) { body += String(buffer: chunk) }
        #expect(body == #"{"aps":{"content-available":1}}"#)
    }

    @Test("a sandbox push goes to api.sandbox.push.apple.com")
    func sandboxRequest() throws {
        let request = try sender(clock: ManualClock(Instant(Date()))).makeRequest(push(sandbox: true))
        #expect(request.url == "https://api.sandbox.push.apple.com/3/device/0a1b2c3d")
    }

    @Test("the provider token is an ES256 JWT with kid, iss and iat that verifies with the key's public half")
    func providerToken() throws {
        let clock = ManualClock(Instant(secondsSince1970: 1_800_000_000))
        let request = try sender(clock: clock).makeRequest(push(sandbox: false))
        let authorization = try #require(request.headers.first(name: "authorization"))
        #expect(authorization.hasPrefix("bearer "))
        let token = String(authorization.dropFirst("bearer ".count))
        let header = try JWT.header(token)
        #expect(header == ["alg": "ES256", "kid": "ABC123DEFG"])
        let claims = try JWT.payload(token)
        #expect(claims == ["iss": "TEAM123456", "iat": .number(1_800_000_000)])
        let parts = token.split(separator: ".")
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: try #require(Base64URL.decode(parts[2])))
        #expect(Self.key.publicKey.isValidSignature(signature, for: Array("\(parts[0]).\(parts[1])".utf8)))
        let other = P256.Signing.PrivateKey().publicKey
        #expect(!other.isValidSignature(signature, for: Array("\(parts[0]).\(parts[1])".utf8)))
    }

    @Test("the provider token is reused for 30 minutes, then re-signed")
    func tokenRenewal() throws {
        let clock = ManualClock(Instant(secondsSince1970: 1_800_000_000))
        let sender = try sender(clock: clock)
        let first = try sender.makeRequest(push(sandbox: false)).headers.first(name: "authorization")
        clock.advance(by: .seconds(1799))
        #expect(try sender.makeRequest(push(sandbox: false)).headers.first(name: "authorization") == first)
        clock.advance(by: .seconds(1))
        let renewed = try sender.makeRequest(push(sandbox: false)).headers.first(name: "authorization")
        #expect(renewed != first)
        let renewedToken = String(try #require(renewed).dropFirst(7))
        #expect(try JWT.payload(renewedToken)["iat"] == .number(1_800_001_800))
    }

    @Test("keys and IDs are checked when the sender is configured")
    func badCredentials() {
        #expect(throws: (any Error).self) { try APNsProviderToken(p8: "not a key", keyID: "ABC123DEFG", teamID: "TEAM123456") }
        #expect(throws: APNsProviderToken.InvalidIdentifier.self) {
            try APNsProviderToken(p8: Self.key.pemRepresentation, keyID: "ABC\"123", teamID: "TEAM123456")
        }
        #expect(throws: APNsProviderToken.InvalidIdentifier.self) {
            try APNsProviderToken(p8: Self.key.pemRepresentation, keyID: "ABC123DEFG", teamID: "")
        }
    }

    /// A sender whose every push is refused, as APNs refuses a bad token.
    struct RefusingSender: PushSender {
        func send(_ push: PushMessage) async throws { throw APNsPushSender.Refused(status: 400, reason: "BadDeviceToken") }
    }

    @Test("a push that cannot be sent makes verifyClient answer INVALID_APP_CREDENTIAL (the client falls back to the web)")
    func refusedPush() async throws {
        let node = try await TestNode.make(push: RefusingSender())
        try await node.run { api in
            let reply = try await api.post(Path.verifyClient, ["appToken": "0a1b2c3d4e5f6071"])
            #expect(reply.errorMessage == "INVALID_APP_CREDENTIAL : The silent push could not be sent; use the web challenge.")
        }
    }
}
