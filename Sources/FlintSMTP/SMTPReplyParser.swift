/// Assembles replies from lines (RFC 5321 §4.2): `250-text` continues a reply, `250 text` (or a bare `250`) ends it;
/// every line of one reply must carry the same code.
struct SMTPReplyParser: Sendable {
    /// The most lines one reply may have; more is taken as a misbehaving server.
    static let maxLines = 128

    private var code: Int?
    private var lines: [String] = []

    /// Whether part of a multi-line reply has been read.
    var isMidReply: Bool { code != nil }

    /// Reads one line (without its line break).
    /// - Returns: the reply this line completes, or `nil` when more lines are to come.
    /// - Throws: `SMTPError.protocolViolation` for a line that is not a reply line.
    mutating func feed(_ line: some Collection<UInt8>) throws(SMTPError) -> SMTPReply? {
        let bytes = Array(line)
        guard bytes.count >= 3, bytes[0] >= UInt8(ascii: "2"), bytes[0] <= UInt8(ascii: "5"),
            bytes[1...2].allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else {
            throw .protocolViolation("not an SMTP reply line: '\(Self.excerpt(bytes))'")
        }
        let lineCode = bytes[0...2].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        let separator = bytes.count > 3 ? bytes[3] : UInt8(ascii: " ")
        guard separator == UInt8(ascii: " ") || separator == UInt8(ascii: "-") else {
            throw .protocolViolation("not an SMTP reply line: '\(Self.excerpt(bytes))'")
        }
        if let code, code != lineCode {
            throw .protocolViolation("a multi-line reply changed its code from \(code) to \(lineCode)")
        }
        let text = bytes.count > 4 ? String(decoding: bytes[4...], as: UTF8.self) : ""
        lines.append(text)
        guard separator == UInt8(ascii: " ") else {
            guard lines.count < Self.maxLines else { throw .protocolViolation("a reply of more than \(Self.maxLines) lines") }
            code = lineCode
            return nil
        }
        let reply = SMTPReply(code: lineCode, lines: lines)
        code = nil
        lines = []
        return reply
    }

    private static func excerpt(_ bytes: [UInt8]) -> String {
        String(decoding: bytes.prefix(60).map { $0 < 32 || $0 > 126 ? UInt8(ascii: "?") : $0 }, as: UTF8.self)
    }
}
