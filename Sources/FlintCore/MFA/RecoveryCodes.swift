package import Crypto

/// Flint's recovery codes: single-use codes shown once at enrollment, which stand in for a lost second factor.
///
/// A code is 12 characters in three groups of four (`abcd-efgh-jkmn`) from 31 lower-case letters and digits
/// without the look-alikes `0 o 1 l i`: 12 × log2(31) ≈ 59.4 bits. Only ``hash(_:key:)`` of a code is stored.
package enum RecoveryCodes {
    /// The 31 characters codes are made of.
    package static let alphabet = Array("23456789abcdefghjkmnpqrstuvwxyz".utf8)
    /// Characters in a code, without the dashes.
    package static let length = 12
    /// Characters per dash-separated group in a generated code.
    static let groupLength = 4

    /// `count` fresh codes, formatted `xxxx-xxxx-xxxx`, each character uniform over ``alphabet``.
    package static func generate(count: Int = 10, using random: any RandomSource) -> [String] {
        (0..<max(count, 0)).map { _ in
            let chars = randomCharacters(using: random)
            let groups = stride(from: 0, to: length, by: groupLength).map { String(decoding: chars[$0..<$0 + groupLength], as: UTF8.self) }
            return groups.joined(separator: "-")
        }
    }

    /// The canonical form of a typed code: ASCII letters lower-cased, spaces, tabs, line breaks and dashes removed.
    /// - Returns: The 12 characters, or `nil` when what remains is not 12 characters of ``alphabet``.
    package static func normalize(_ text: String) -> String? {
        guard text.utf8.count <= 64 else { return nil }
        var out: [UInt8] = []
        for c in text.utf8 {
            switch c {
            case UInt8(ascii: " "), UInt8(ascii: "-"), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): continue
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): out.append(c + 32)
            default: out.append(c)
            }
        }
        guard out.count == length, out.allSatisfy(alphabet.contains) else { return nil }
        return String(decoding: out, as: UTF8.self)
    }

    /// The stored form of a normalized code: lower-case hex of HMAC-SHA256 under `key` (``ServerSecret/recoveryKey``).
    package static func hash(_ normalized: String, key: SymmetricKey) -> String {
        Hex.encode(HMAC<SHA256>.authenticationCode(for: Array(normalized.utf8), using: key))
    }

    /// ``length`` characters of ``alphabet``; bytes ≥ 248 (8 × 31) are dropped so each is uniform.
    private static func randomCharacters(using random: any RandomSource) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(length)
        while out.count < length {
            for b in random.bytes(length + 4) where b < 248 && out.count < length {
                out.append(alphabet[Int(b) % alphabet.count])
            }
        }
        return out
    }
}
