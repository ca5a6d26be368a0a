import FlintCore
import Testing

@Suite("Webhook signatures")
struct WebhookSignatureTests {
    @Test("a signature verifies with its secret and body within the tolerance, and not otherwise")
    func roundTrip() {
        let body = Array(#"{"to":"+16505553434"}"#.utf8)
        let header = WebhookSignature.header(secret: "s3cret-s3cret-s3", timestamp: 1_000, body: body)
        #expect(header.hasPrefix("t=1000,v1="))
        #expect(header.count == "t=1000,v1=".count + 64)
        #expect(WebhookSignature.verify(header: header, secret: "s3cret-s3cret-s3", body: body, now: 1_200))
        #expect(!WebhookSignature.verify(header: header, secret: "s3cret-s3cret-s3", body: body, now: 1_301))
        #expect(!WebhookSignature.verify(header: header, secret: "s3cret-s3cret-s4", body: body, now: 1_000))
        #expect(!WebhookSignature.verify(header: header, secret: "s3cret-s3cret-s3", body: body + [0x20], now: 1_000))
        #expect(!WebhookSignature.verify(header: "t=1000", secret: "s3cret-s3cret-s3", body: body, now: 1_000))
        #expect(!WebhookSignature.verify(header: "garbage", secret: "s3cret-s3cret-s3", body: body, now: 1_000))
    }
}
