import FlintCore
import Testing

@Suite("Webhook signatures")
struct WebhookSignatureTests {
    @Test("a signature verifies with its secret and body within the tolerance, and not otherwise")
    func roundTrip() {
        let body = Array(#"{"to":"+16505553434"}"#.utf8)
        let header = WebhookSignature.header(secret: "s3cret-s3cret-s3", at: Instant(secondsSince1970: 1_000), body: body)
        #expect(header.hasPrefix("t=1000,v1="))
        #expect(header.count == "t=1000,v1=".count + 64)
        #expect(WebhookSignature.verify(header: header, secret: "s3cret-s3cret-s3", body: body, now: Instant(secondsSince1970: 1_200)))
        #expect(!WebhookSignature.verify(header: header, secret: "s3cret-s3cret-s3", body: body, now: Instant(secondsSince1970: 1_301)))
        #expect(!WebhookSignature.verify(header: header, secret: "s3cret-s3cret-s4", body: body, now: Instant(secondsSince1970: 1_000)))
        #expect(!WebhookSignature.verify(header: header, secret: "s3cret-s3cret-s3", body: body + [0x20], now: Instant(secondsSince1970: 1_000)))
        #expect(!WebhookSignature.verify(header: "t=1000", secret: "s3cret-s3cret-s3", body: body, now: Instant(secondsSince1970: 1_000)))
        #expect(!WebhookSignature.verify(header: "garbage", secret: "s3cret-s3cret-s3", body: body, now: Instant(secondsSince1970: 1_000)))
        let extreme = "t=-9223372036854775808,v1=" + String(repeating: "0", count: 64)
        #expect(!WebhookSignature.verify(header: extreme, secret: "s3cret-s3cret-s3", body: body, now: Instant(secondsSince1970: 1_000)))
    }
}
