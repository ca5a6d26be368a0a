import Crypto

/// Time-based one-time passwords (RFC 6238), built on HOTP (RFC 4226): the rules behind TOTP second factors.
///
/// Everything here is pure: the caller passes the time and the secret, and keeps track of used steps so a code
/// cannot be replayed.
package enum TOTP {
    /// Length in bytes of a generated secret (160 bits, RFC 4226's recommendation for HMAC-SHA1).
    package static let secretLength = 20

    /// The code for one time step (the HOTP value of the step counter), zero-padded to `parameters.digits`.
    ///
    /// A `digits` below 1 is treated as 1; a `digits` above 10 only adds leading zeros (the truncated value has 31 bits).
    package static func code(secret: [UInt8], step: Int64, parameters: TOTPParameters) -> String {
        let counter = withUnsafeBytes(of: UInt64(bitPattern: step).bigEndian) { Array($0) }
        let key = SymmetricKey(data: secret)
        let mac: [UInt8] =
            switch parameters.algorithm {
            case .sha1: Array(HMAC<Insecure.SHA1>.authenticationCode(for: counter, using: key))
            case .sha256: Array(HMAC<SHA256>.authenticationCode(for: counter, using: key))
            case .sha512: Array(HMAC<SHA512>.authenticationCode(for: counter, using: key))
            }
        // Dynamic truncation (RFC 4226 §5.3).
        let offset = Int(mac[mac.count - 1] & 0x0f)
        let binary =
            UInt64(mac[offset] & 0x7f) << 24 | UInt64(mac[offset + 1]) << 16 | UInt64(mac[offset + 2]) << 8 | UInt64(mac[offset + 3])
        let digits = max(parameters.digits, 1)
        var modulus: UInt64 = 1
        for _ in 0..<min(digits, 10) { modulus *= 10 }
        let text = String(binary % modulus)
        return String(repeating: "0", count: max(digits - text.count, 0)) + text
    }

    /// The time step containing `unixSeconds`: ⌊t / period⌋ (RFC 6238 §4.2, T0 = 0). A `period` below 1 counts as 1.
    package static func step(at unixSeconds: Int64, period: Int) -> Int64 {
        let p = Int64(max(period, 1))
        let q = unixSeconds / p
        return unixSeconds % p < 0 ? q - 1 : q
    }

    /// The step, within `adjacentIntervals` steps either side of the one containing `unixSeconds`, whose code is `code`.
    ///
    /// Every candidate step is computed and compared in constant time, so the answer's timing does not tell which
    /// step matched. If the code happens to match more than one step, the latest is returned (the caller records it,
    /// and refusing steps up to it refuses every replay of this code).
    /// - Returns: The matching step, or `nil` when none matches or `code` is not `parameters.digits` ASCII digits.
    package static func matchingStep(
        code: String,
        secret: [UInt8],
        at unixSeconds: Int64,
        adjacentIntervals: Int,
        parameters: TOTPParameters
    ) -> Int64? {
        let given = Array(code.utf8)
        guard given.count == max(parameters.digits, 1), given.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        let now = step(at: unixSeconds, period: parameters.period)
        let window = Int64(max(adjacentIntervals, 0))
        var match: Int64?
        for delta in -window...window {
            let (candidate, overflow) = now.addingReportingOverflow(delta)
            if overflow { continue }
            if constantTimeEquals(Array(Self.code(secret: secret, step: candidate, parameters: parameters).utf8), given) {
                match = candidate
            }
        }
        return match
    }

    /// A fresh 20-byte secret.
    package static func generateSecret(using random: any RandomSource) -> [UInt8] {
        random.bytes(secretLength)
    }
}
