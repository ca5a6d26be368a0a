import Crypto
import FlintCore
import Foundation
import Testing

@Suite("Standard Webhooks: secrets, signatures, retry schedule")
struct StandardWebhookTests {
    @Test("the signature is Standard Webhooks' test vector: v1, base64 HMAC-SHA256 of id.timestamp.body keyed with the secret's bytes")
    func vector() throws {
        let key = try #require(StandardWebhook.key(of: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"))
        let body = Array(#"{"test": 2432232314}"#.utf8)
        #expect(
            StandardWebhook.signature(key: key, id: "msg_p5jXN8AQM9LWM0D4loKWxJek", timestamp: 1_614_265_330, body: body)
                == "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
    }

    @Test("the headers carry the id, the whole seconds and the signature over both")
    func headers() throws {
        let secret = StandardWebhook.newSecret(random: SystemRandom())
        let key = try #require(StandardWebhook.key(of: secret))
        let body = Array(#"{"type":"user.created"}"#.utf8)
        let fields = Dictionary(
            uniqueKeysWithValues: StandardWebhook.headers(key: key, id: "msg_1", at: Instant(millisecondsSince1970: 1_700_000_000_999), body: body)
                .map { ($0.name, $0.value) })
        #expect(fields["webhook-id"] == "msg_1" && fields["webhook-timestamp"] == "1700000000")
        let mac = HMAC<SHA256>.authenticationCode(for: Array("msg_1.1700000000.".utf8) + body, using: SymmetricKey(data: key))
        #expect(fields["webhook-signature"] == "v1," + Data(mac).base64EncodedString())
    }

    @Test("a new secret is whsec_ and the base64 of 32 random bytes; anything else is no secret")
    func secrets() throws {
        let secret = StandardWebhook.newSecret(random: ScriptedRandom(script: Array(repeating: 7, count: 32)))
        #expect(secret == "whsec_" + Data(repeating: 7, count: 32).base64EncodedString())
        #expect(StandardWebhook.key(of: secret) == Array(repeating: 7, count: 32))
        #expect(StandardWebhook.key(of: "whsec_" + Data(repeating: 7, count: 16).base64EncodedString()) == nil, "fewer than 24 bytes")
        #expect(StandardWebhook.key(of: "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw") == nil, "no prefix")
        #expect(StandardWebhook.key(of: "whsec_not base64!") == nil)
    }

    @Test("a failed attempt waits 5 s, 30 s, 2 min, 10 min, 1 h, 2 h, 4 h, 8 h, 8 h, each within a fifth, then the delivery fails")
    func schedule() {
        let low = ScriptedRandom(script: [0, 0])
        let high = ScriptedRandom(script: [255, 255])
        let seconds: [Int64] = [5, 30, 120, 600, 3600, 7200, 14_400, 28_800, 28_800]
        for (index, base) in seconds.enumerated() {
            #expect(StandardWebhook.retryDelay(afterAttempt: index + 1, random: low) == .milliseconds(base * 800))
            #expect(StandardWebhook.retryDelay(afterAttempt: index + 1, random: high) == .milliseconds(base * 1200))
        }
        #expect(StandardWebhook.maxAttempts == 10)
        #expect(StandardWebhook.retryDelay(afterAttempt: 10, random: low) == nil)
        #expect(StandardWebhook.retryDelay(afterAttempt: 0, random: low) == nil)
        let total = seconds.reduce(0, +)
        #expect(total > 20 * 3600 && total < 24 * 3600, "about a day of retries")
    }
}
