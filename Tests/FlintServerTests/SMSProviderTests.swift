import FlintCore
import FlintServerTestSupport
import FlintTesting
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import FlintServer

/// A stand-in for an SMS provider's API: records each request and answers with the next scripted status and body.
actor FakeProvider {
    struct Seen: Sendable {
        var path: String
        var headers: [String: String]
        var body: String
    }

    private var answers: [(Int, String)]
    private(set) var seen: [Seen] = []

    init(answers: [(Int, String)]) { self.answers = answers }

    func record(_ request: Seen) -> (Int, String) {
        seen.append(request)
        return answers.isEmpty ? (500, "{}") : answers.removeFirst()
    }

    /// Runs `body` with the provider listening on a loopback port.
    nonisolated func serve(_ body: @escaping @Sendable (Int) async throws -> Void) async throws {
        let router = Router()
        router.post("/**") { request, _ -> Response in
            let bytes = try await request.body.collect(upTo: 1 << 20)
            var headers: [String: String] = [:]
            for field in request.headers { headers[field.name.canonicalName] = field.value }
            let (status, text) = await self.record(Seen(path: request.uri.string, headers: headers, body: String(buffer: bytes)))
            return Response(
                status: .init(code: status), headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: text)))
        }
        try await Application(router: router).test(.live) { client in
            guard let port = client.port else { throw CancellationError() }
            try await body(port)
        }
    }
}

@Suite("SMS providers")
struct SMSProviderTests {
    static let message = SMSMessage(
        to: "+16505553434", body: "123456 is your code for Demo", locale: "en", createdAt: 0, code: "123456", sessionID: "abc123")

    /// The kind of delivery failure `send` threw, `nil` when it succeeded (any other error is recorded as an issue).
    static func failure(_ send: () async throws -> Void) async -> SMSDeliveryError.Kind? {
        do {
            try await send()
            return nil
        } catch let error as SMSDeliveryError {
            return error.kind
        } catch {
            Issue.record("unexpected \(error)")
            return nil
        }
    }

    @Test("Twilio: form-encoded To/Body/From with Basic auth to the account's Messages resource")
    func twilioRequest() async throws {
        let provider = FakeProvider(answers: [(201, #"{"sid":"SM1","status":"queued"}"#)])
        try await provider.serve { port in
            let sender = TwilioSMSSender(
                accountSID: "AC123", password: "token", sender: .from("+15551234567"), baseURL: "http://127.0.0.1:\(port)")
            try await sender.send(Self.message)
        }
        let seen = await provider.seen
        #expect(seen.count == 1)
        #expect(seen.first?.path == "/2010-04-01/Accounts/AC123/Messages.json")
        #expect(seen.first?.headers["authorization"] == "Basic " + Data("AC123:token".utf8).base64EncodedString())
        #expect(seen.first?.headers["content-type"] == "application/x-www-form-urlencoded")
        #expect(seen.first?.body == "To=%2B16505553434&Body=123456%20is%20your%20code%20for%20Demo&From=%2B15551234567")
    }

    @Test("Twilio: an invalid number is rejectedNumber, bad credentials refused, 503 then 201 retried, two 500s unavailable")
    func twilioFailures() async throws {
        let provider = FakeProvider(answers: [
            (400, #"{"code":21211,"message":"The 'To' number is not valid.","status":400}"#),
            (401, #"{"code":20003,"message":"Authenticate","status":401}"#),
            (503, "{}"), (201, #"{"sid":"SM2"}"#),
            (500, "{}"), (500, "{}"),
        ])
        try await provider.serve { port in
            let sender = TwilioSMSSender(
                accountSID: "AC123", username: "SK456", password: "secret", sender: .messagingService("MG789"),
                baseURL: "http://127.0.0.1:\(port)")
            #expect(await Self.failure { try await sender.send(Self.message) } == .rejectedNumber)
            #expect(await Self.failure { try await sender.send(Self.message) } == .refused)
            #expect(await Self.failure { try await sender.send(Self.message) } == nil)  // 503, then 201
            #expect(await Self.failure { try await sender.send(Self.message) } == .unavailable)
        }
        let seen = await provider.seen
        #expect(seen.count == 6)
        #expect(seen.first?.headers["authorization"] == "Basic " + Data("SK456:secret".utf8).base64EncodedString())
        #expect(seen.first?.body.hasSuffix("&MessagingServiceSid=MG789") == true)
    }

    @Test("webhook: signed JSON with the text, its code and locale; a 4xx answer is refused")
    func webhook() async throws {
        let provider = FakeProvider(answers: [(204, ""), (403, "{}")])
        let clock = ManualClock(Instant(secondsSince1970: 1_800_000_000))
        try await provider.serve { port in
            let sender = WebhookSMSSender(url: "http://127.0.0.1:\(port)/sms", secret: "0123456789abcdef-secret", clock: clock)
            #expect(await Self.failure { try await sender.send(Self.message) } == nil)
            #expect(await Self.failure { try await sender.send(Self.message) } == .refused)
        }
        let seen = await provider.seen
        let first = try #require(seen.first)
        #expect(first.path == "/sms")
        let payload = try #require(try JSONSerialization.jsonObject(with: Data(first.body.utf8)) as? [String: String])
        #expect(payload == ["to": "+16505553434", "body": "123456 is your code for Demo", "locale": "en", "code": "123456", "messageId": "abc123"])
        let signature = try #require(first.headers["x-flint-signature"])
        #expect(signature.hasPrefix("t=1800000000,v1="))
        #expect(
            WebhookSignature.verify(
                header: signature, secret: "0123456789abcdef-secret", body: Array(first.body.utf8), now: Instant(secondsSince1970: 1_800_000_100)))
        #expect(
            !WebhookSignature.verify(
                header: signature, secret: "another-secret-of-16", body: Array(first.body.utf8), now: Instant(secondsSince1970: 1_800_000_100)))
    }

    @Test(
        "--sms URLs: Twilio and webhook forms parse; bad ones say what is wrong",
        arguments: [
            ("twilio://AC1:tok@?from=%2B15551234567", nil, true),
            ("twilio://SK1:sec@api.twilio.com?messagingServiceSid=MG1&accountSid=AC1", nil, true),
            ("twilio+http://AC1:tok@127.0.0.1:8080?from=%2B15551234567", nil, true),
            ("twilio+http://AC1:tok@example.com?from=%2B15551234567", nil, false),
            ("twilio://AC1:tok@?", nil, false),
            ("twilio://@?from=%2B1555", nil, false),
            ("https://hooks.example.com/sms", "0123456789abcdef", true),
            ("https://hooks.example.com/sms", "short", false),
            ("https://hooks.example.com/sms", nil, false),
            ("http://hooks.example.com/sms", "0123456789abcdef", false),
            ("http://127.0.0.1:9000/sms", "0123456789abcdef", true),
            ("sftp://example.com", nil, false),
            ("not a url", nil, false),
        ] as [(String, String?, Bool)])
    func providerURLs(url: String, secret: String?, valid: Bool) {
        let made = try? SMSProvider.sender(url: url, webhookSecret: secret)
        #expect((made != nil) == valid)
    }

    @Test("a provider that rejects the number gives INVALID_PHONE_NUMBER and leaves no pending code")
    func rejectedThroughTheFlow() async throws {
        struct Rejecting: SMSSender {
            func send(_ message: SMSMessage) async throws { throw SMSDeliveryError(.rejectedNumber, "HTTP 400, Twilio error 21614") }
        }
        try await TestNode.make(sms: Rejecting()).run { api in
            let reply = try await api.post(Path.send, ["phoneNumber": alice])
            #expect(reply.errorCode == "INVALID_PHONE_NUMBER")
            #expect(try await api.pendingCodes().isEmpty)
        }
    }

    @Test("production mode without a provider refuses to send, saying why; fictional numbers still work")
    func productionWithoutProvider() async throws {
        try await withFlint(configure: {
            $0.devMode = false
            $0.adminToken = "admin"
            // Production enforces app verification by default; it is turned off here so the send reaches the SMS step.
            $0.configDocument = [
                "signIn": .object([
                    "phoneNumber": .object([
                        "enabled": .bool(true), "testPhoneNumbers": .object(["+16505550199": .string("123456")]), "appVerification": .string("OFF"),
                    ])
                ])
            ]
        }) { api in
            let reply = try await api.post(Path.send, ["phoneNumber": alice])
            #expect(reply.status == .internalServerError)
            #expect(reply.text.contains("SMS delivery is not configured"))
            #expect(try await api.post(Path.send, ["phoneNumber": "+16505550199"]).status == .ok)
        }
    }
}
