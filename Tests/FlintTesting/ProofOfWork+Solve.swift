package import FlintCore

extension ProofOfWork {
    /// Finds a solution by counting up, as the challenge page's script does: what tests do in the browser's place.
    package static func solve(puzzle: String, difficulty: Int = difficulty) -> String {
        var n: UInt64 = 0
        while !isSolved(puzzle: puzzle, solution: String(n), difficulty: difficulty) { n += 1 }
        return String(n)
    }
}
