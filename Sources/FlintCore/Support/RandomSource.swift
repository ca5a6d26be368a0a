/// Where secrets come from: codes, session handles, user IDs, refresh tokens.
public protocol RandomSource: Sendable {
    /// `count` bytes of cryptographically secure randomness.
    func bytes(_ count: Int) -> [UInt8]
}

/// The operating system's CSPRNG (`getrandom` on Linux, `SecRandomCopyBytes`-backed on Apple platforms).
public struct SystemRandom: RandomSource {
    /// Creates the system random source.
    public init() {}

    public func bytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        var out = [UInt8]()
        out.reserveCapacity(count)
        while out.count < count {
            let word = generator.next()
            withUnsafeBytes(of: word) { raw in
                for byte in raw where out.count < count { out.append(byte) }
            }
        }
        return out
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
    public func alphanumericID(length: Int = 28) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        var s = ""
        s.reserveCapacity(length)
        for _ in 0..<length { s.append(alphabet[Int(uniform(below: UInt32(alphabet.count)))]) }
        return s
    }
}
