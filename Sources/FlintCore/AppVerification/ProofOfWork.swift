import Crypto

/// The small proof-of-work of Flint's web challenge: find a decimal `solution` such that
/// `SHA-256(puzzle ":" solution)` starts with `difficulty` zero bits. It costs a browser well under a second and
/// makes minting tokens in bulk expensive; it is not a test that a human is present (the page's button is the
/// human step, the puzzle is the cost).
package enum ProofOfWork {
    /// Leading zero bits asked for: about 65 000 hashes on average.
    package static let difficulty = 16
    /// Longest solution accepted.
    package static let maxSolutionLength = 20

    /// Whether `solution` solves `puzzle` at `difficulty`.
    package static func isSolved(puzzle: String, solution: String, difficulty: Int = difficulty) -> Bool {
        guard !solution.isEmpty, solution.utf8.count <= maxSolutionLength, solution.utf8.allSatisfy({ (48...57).contains($0) }) else {
            return false
        }
        return leadingZeroBits(SHA256.hash(data: Array("\(puzzle):\(solution)".utf8))) >= difficulty
    }

    static func leadingZeroBits(_ digest: SHA256.Digest) -> Int {
        var bits = 0
        for byte in digest {
            if byte == 0 {
                bits += 8
                continue
            }
            bits += byte.leadingZeroBitCount
            break
        }
        return bits
    }
}
