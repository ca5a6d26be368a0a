/// One reply from the server: a three-digit code and one or more lines of text (`250-first`, `250 last`).
struct SMTPReply: Sendable, Equatable, CustomStringConvertible {
    /// The reply code, 200–599.
    var code: Int
    /// The text of each line, after the code and separator.
    var lines: [String]

    /// 2xx: the command succeeded.
    var isPositive: Bool { (200..<300).contains(code) }
    /// 3xx: go on (after DATA, or an AUTH challenge).
    var isIntermediate: Bool { (300..<400).contains(code) }

    /// The reply as one line for logs and errors: `550 5.1.1 no such user`, lines joined with ` / `.
    var description: String { "\(code) " + lines.joined(separator: " / ") }

    /// The EHLO extensions, upper-cased keyword first (`["AUTH", "PLAIN", "LOGIN"]`), from every line after the first.
    var extensions: [[String]] {
        lines.dropFirst().map { line in
            let words = line.split(separator: " ").map(String.init)
            guard let first = words.first else { return [] }
            return [first.uppercased()] + words.dropFirst().map { $0.uppercased() }
        }
    }

    /// The error this reply means when it was not the expected one: 4xx transient, 5xx permanent, anything else a
    /// protocol violation.
    func failure(after command: String) -> SMTPError {
        switch code {
        case 400..<500: .transient(code: code, reply: description)
        case 500..<600: .permanent(code: code, reply: description)
        default: .protocolViolation("unexpected reply to \(command): \(description)")
        }
    }
}
