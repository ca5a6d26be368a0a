/// Six-digit SMS codes: generation and comparison.
package enum VerificationCode {
    /// The number of digits in a code.
    package static let length = 6

    /// A fresh code of six decimal digits, uniformly drawn from a CSPRNG (leading zeros possible).
    package static func generate(using random: some RandomSource) -> String {
        let n = random.uniform(below: 1_000_000)
        let digits = String(n)
        return String(repeating: "0", count: length - digits.count) + digits
    }

    /// Whether `text` has the shape of a code (exactly six ASCII digits).
    package static func isWellFormed(_ text: String) -> Bool {
        text.utf8.count == length && text.utf8.allSatisfy { $0 >= 48 && $0 <= 57 }
    }
}

/// Compares two byte strings in time independent of where they differ.
package func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    guard a.count == b.count else { return false }
    var diff: UInt8 = 0
    for i in 0..<a.count { diff |= a[i] ^ b[i] }
    return diff == 0
}
