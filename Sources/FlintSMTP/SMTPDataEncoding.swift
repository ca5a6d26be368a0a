/// The DATA payload (RFC 5321 §4.5.2): a rendered message with every line that starts with `.` given a second `.`,
/// then the `CRLF . CRLF` terminator.
enum SMTPDataEncoding {
    /// `message` (CRLF line endings) dot-stuffed and terminated.
    static func payload(_ message: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(message.utf8.count + 64)
        var atLineStart = true
        for byte in message.utf8 {
            if atLineStart, byte == UInt8(ascii: ".") { out.append(byte) }
            out.append(byte)
            atLineStart = byte == 10
        }
        if !(out.count >= 2 && out[out.count - 2] == 13 && out[out.count - 1] == 10) { out += [13, 10] }
        out += [UInt8(ascii: "."), 13, 10]
        return out
    }
}
