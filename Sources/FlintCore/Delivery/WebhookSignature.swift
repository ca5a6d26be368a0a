import Crypto

/// The signature Flint puts on the webhooks it calls (SMS delivery), so the receiver can tell a request came from
/// this Flint and is fresh: `X-Flint-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`.
package enum WebhookSignature {
    /// The header carrying the signature.
    package static let headerName = "X-Flint-Signature"

    /// The header value for `body` sent at `instant` (written in whole seconds).
    package static func header(secret: String, at instant: Instant, body: [UInt8]) -> String {
        let timestamp = instant.secondsSince1970
        return "t=\(timestamp),v1=" + Hex.encode(mac(secret: secret, timestamp: timestamp, body: body))
    }

    /// Whether `header` signs `body` with `secret` and was made within `tolerance` of `now` (in whole seconds).
    package static func verify(header: String, secret: String, body: [UInt8], now: Instant, tolerance: Duration = .seconds(300)) -> Bool {
        var timestamp: Int64?
        var signatures: [[UInt8]] = []
        for part in header.split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2 else { continue }
            if pair[0] == "t" { timestamp = Int64(pair[1]) }
            if pair[0] == "v1", let bytes = Hex.decode(pair[1]) { signatures.append(bytes) }
        }
        guard let timestamp else { return false }
        let sent = Instant(secondsSince1970: timestamp)
        guard now.wholeSecond - sent <= tolerance, sent - now.wholeSecond <= tolerance else { return false }
        let expected = mac(secret: secret, timestamp: timestamp, body: body)
        return signatures.contains { constantTimeEquals($0, expected) }
    }

    private static func mac(secret: String, timestamp: Int64, body: [UInt8]) -> [UInt8] {
        var hmac = HMAC<SHA256>(key: SymmetricKey(data: Array(secret.utf8)))
        hmac.update(data: Array("\(timestamp).".utf8))
        hmac.update(data: body)
        return Array(hmac.finalize())
    }
}
