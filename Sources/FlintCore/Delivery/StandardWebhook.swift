import Crypto

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The rules of Standard Webhooks (standardwebhooks.com) that Flint's event webhooks follow: a subscription's secret
/// (`whsec_` and the base64 of its random bytes), the signature headers, and when a failed delivery is tried again.
package enum StandardWebhook {
    /// The secret's prefix.
    package static let secretPrefix = "whsec_"
    /// How many random bytes a new secret holds (the scheme asks for 24 to 64).
    package static let secretLength = 32

    /// A new secret: `whsec_` and the base64 of ``secretLength`` random bytes.
    package static func newSecret(random: any RandomSource) -> String {
        secretPrefix + Data(random.bytes(secretLength)).base64EncodedString()
    }

    /// The key bytes of a secret (its base64 after `whsec_`); `nil` when it is not one.
    package static func key(of secret: String) -> [UInt8]? {
        guard secret.hasPrefix(secretPrefix), let bytes = Data(base64Encoded: String(secret.dropFirst(secretPrefix.count))),
            bytes.count >= 24
        else { return nil }
        return [UInt8](bytes)
    }

    /// `webhook-signature`'s value for message `id` sent at `timestamp` (unix seconds) with `body`: `v1,` and the
    /// base64 of HMAC-SHA256 over `id.timestamp.body` keyed with the secret's bytes.
    package static func signature(key: [UInt8], id: String, timestamp: Int64, body: [UInt8]) -> String {
        var hmac = HMAC<SHA256>(key: SymmetricKey(data: key))
        hmac.update(data: Array("\(id).\(timestamp).".utf8))
        hmac.update(data: body)
        return "v1," + Data(hmac.finalize()).base64EncodedString()
    }

    /// The three headers of a delivery: `webhook-id`, `webhook-timestamp`, `webhook-signature`.
    package static func headers(key: [UInt8], id: String, at instant: Instant, body: [UInt8]) -> [(name: String, value: String)] {
        let timestamp = instant.secondsSince1970
        return [
            ("webhook-id", id), ("webhook-timestamp", "\(timestamp)"),
            ("webhook-signature", signature(key: key, id: id, timestamp: timestamp, body: body)),
        ]
    }

    /// The pauses after each failed attempt, before jitter: 5 s, 30 s, 2 min, 10 min, 1 h, 2 h, 4 h, 8 h, 8 h (about
    /// 23 hours in all); the attempt after the last pause is the last.
    package static let retryDelays: [Duration] = [
        .seconds(5), .seconds(30), .seconds(120), .seconds(600), .seconds(3600), .seconds(7200), .seconds(14_400), .seconds(28_800),
        .seconds(28_800),
    ]

    /// How many attempts a delivery gets before it is marked failed.
    package static var maxAttempts: Int { retryDelays.count + 1 }

    /// When to try again after attempt number `attempt` (1 for the first) failed, or `nil` when it was the last: its
    /// pause stretched or shrunk by up to a fifth, from two random bytes, so receivers that come back are not hit by
    /// every delivery at once.
    package static func retryDelay(afterAttempt attempt: Int, random: any RandomSource) -> Duration? {
        guard attempt >= 1, attempt <= retryDelays.count else { return nil }
        let base = retryDelays[attempt - 1].inMilliseconds
        let bytes = random.bytes(2)
        let unit = Double(Int(bytes[0]) << 8 | Int(bytes[1])) / 65_535  // 0...1
        let factor = 0.8 + 0.4 * unit
        return .milliseconds(Int64((Double(base) * factor).rounded()))
    }
}
