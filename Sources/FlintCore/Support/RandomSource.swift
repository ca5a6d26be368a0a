import Crypto

/// Where secrets come from: codes, session handles, user IDs, refresh tokens.
public protocol RandomSource: Sendable {
    /// `count` bytes of cryptographically secure randomness.
    func bytes(_ count: Int) -> [UInt8]
}

/// A CSPRNG: BoringSSL's DRBG (through swift-crypto), seeded and reseeded from the operating system's entropy
/// (`getrandom` on Linux). One call fills a whole buffer, without a system call per word.
public struct SystemRandom: RandomSource {
    /// Creates the system random source.
    public init() {}

    public func bytes(_ count: Int) -> [UInt8] {
        guard count > 0 else { return [] }
        return SymmetricKey(size: SymmetricKeySize(bitCount: count * 8)).withUnsafeBytes { Array($0) }
    }
}

extension RandomSource {
    /// A uniformly distributed integer in `0..<bound` (rejection sampling, no modulo bias).
    public func uniform(below bound: UInt32) -> UInt32 {
        precondition(bound > 0)
        let limit = UInt32.max - (UInt32.max % bound)
        while true {
            let b = bytes(4)
            let value = UInt32(b[0]) | UInt32(b[1]) << 8 | UInt32(b[2]) << 16 | UInt32(b[3]) << 24
            if value < limit { return value % bound }
        }
    }

    /// An identifier of `length` characters from `[A-Za-z0-9]`, like Firebase's 28-character `localId`.
    /// Bytes are drawn in bulk and those ≥ 248 dropped, so every character is uniform (no modulo bias).
    public func alphanumericID(length: Int = 28) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(length)
        while out.count < length {
            for b in bytes(length + 8) where b < 248 && out.count < length {
                out.append(alphabet[Int(b) % alphabet.count])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
