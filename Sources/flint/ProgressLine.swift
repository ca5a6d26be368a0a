#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A progress line on standard error for long work: done, rate and, when the total is known, share and ETA. On a
/// terminal it is redrawn in place a few times a second; otherwise a line is printed every few seconds.
struct ProgressLine {
    private let start = ContinuousClock.now
    private var last = ContinuousClock.now
    private var shown = false
    private let terminal = isatty(2) == 1
    /// What is counted (`users`).
    let noun: String
    /// The work's size in the unit of ``update(done:progress:detail:)``'s `progress` (bytes of a file), if known.
    let total: Int?

    init(noun: String, total: Int?) {
        self.noun = noun
        self.total = total
    }

    /// Seconds since the work started.
    var elapsed: Double {
        let d = ContinuousClock.now - start
        return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }

    /// Reports `done` items and `progress` units of ``total``; draws only when it is time.
    mutating func update(done: Int, progress: Int, detail: String = "", force: Bool = false) {
        let now = ContinuousClock.now
        guard force || now - last >= (terminal ? .milliseconds(250) : .seconds(5)) else { return }
        last = now
        let seconds = max(elapsed, 0.001)
        var text = "\(done) \(noun) · \(Int(Double(done) / seconds)) \(noun)/s"
        if let total, total > 0, progress > 0 {
            let share = min(1, Double(progress) / Double(total))
            let remaining = share > 0 ? seconds * (1 - share) / share : 0
            text += " · \(Int(share * 100))% · ETA \(Self.duration(remaining))"
        }
        if !detail.isEmpty { text += " · " + detail }
        write(terminal ? "\r\u{1B}[K" + text : text + "\n")
        shown = true
    }

    /// Ends the line on a terminal.
    mutating func finish() {
        if terminal && shown { write("\n") }
        shown = false
    }

    private func write(_ text: String) { writeStandardError(text) }

    /// `1h02m`, `3m07s`, `42s`.
    static func duration(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        if s >= 3600 { return "\(s / 3600)h" + format2(s % 3600 / 60) + "m" }
        if s >= 60 { return "\(s / 60)m" + format2(s % 60) + "s" }
        return "\(s)s"
    }

    private static func format2(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
}

/// Writes a line to standard error.
func printError(_ text: String) { writeStandardError(text + "\n") }

/// Writes text to standard error, unbuffered.
func writeStandardError(_ text: String) {
    let bytes = Array(text.utf8)
    var written = 0
    while written < bytes.count {
        let n = bytes[written...].withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
        if n <= 0 { return }
        written += n
    }
}
