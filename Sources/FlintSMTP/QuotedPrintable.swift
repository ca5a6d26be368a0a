/// Quoted-printable (RFC 2045 §6.7) for UTF-8 text bodies: line breaks of any kind become CRLF, encoded lines are at
/// most 76 characters (soft breaks `=` CRLF where needed), and white space at the end of a line is encoded.
enum QuotedPrintable {
    /// The longest encoded line, soft-break `=` included.
    static let lineLimit = 76

    /// Encodes `text`; the result is ASCII, its lines end in CRLF, and it ends with a line break.
    static func encode(_ text: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + text.utf8.count / 8 + 8)
        for line in lines(of: text) {
            var length = 0
            for (index, byte) in line.enumerated() {
                let atEnd = index == line.count - 1
                let literal = (byte >= 33 && byte <= 126 && byte != UInt8(ascii: "=")) || ((byte == 32 || byte == 9) && !atEnd)
                let width = literal ? 1 : 3
                // Keep room for the soft break `=`, unless this is the line's last character.
                if length + width > (atEnd ? lineLimit : lineLimit - 1) {
                    out += [UInt8(ascii: "="), 13, 10]
                    length = 0
                }
                if literal {
                    out.append(byte)
                } else {
                    out += [UInt8(ascii: "="), hex(byte >> 4), hex(byte & 15)]
                }
                length += width
            }
            out += [13, 10]
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The UTF-8 lines of `text`, split at CRLF, lone CR and lone LF; a final line break ends the last line rather
    /// than starting an empty one.
    static func lines(of text: String) -> [ArraySlice<UInt8>] {
        let bytes = Array(text.utf8)
        var result: [ArraySlice<UInt8>] = []
        var start = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 13 || byte == 10 {
                result.append(bytes[start..<index])
                index += (byte == 13 && index + 1 < bytes.count && bytes[index + 1] == 10) ? 2 : 1
                start = index
            } else {
                index += 1
            }
        }
        if start < bytes.count || result.isEmpty { result.append(bytes[start..<bytes.count]) }
        return result
    }

    private static func hex(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") + nibble - 10
    }
}
