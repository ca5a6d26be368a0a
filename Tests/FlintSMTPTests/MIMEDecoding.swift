import Foundation

/// Just enough of a MIME reader to check what FlintSMTP renders and what the test server stored, written
/// independently of the encoder: header unfolding, RFC 2047 B-words, quoted-printable and multipart splitting.
struct ParsedMessage {
    /// Header fields in order, unfolded (CRLF before white space removed), names as written.
    var headers: [(name: String, value: String)]
    /// The raw body, after the blank line.
    var body: String

    init(_ text: String) {
        let split = text.components(separatedBy: "\r\n\r\n")
        let head = split.first ?? ""
        body = split.dropFirst().joined(separator: "\r\n\r\n")
        let unfolded = head.replacingOccurrences(of: "\r\n ", with: " ").replacingOccurrences(of: "\r\n\t", with: "\t")
        headers = unfolded.components(separatedBy: "\r\n").compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces))
        }
    }

    /// The first field with this name (case-insensitive), unfolded but not decoded.
    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The first field with this name with its encoded-words decoded.
    func decoded(_ name: String) -> String? {
        header(name).map(decodeEncodedWords)
    }

    /// The parts of a multipart body, split at `--boundary` lines.
    func parts() -> [ParsedMessage] {
        guard let type = header("Content-Type"), let range = type.range(of: "boundary=\"") else { return [] }
        let boundary = type[range.upperBound...].prefix { $0 != "\"" }
        let sections = body.components(separatedBy: "--\(boundary)")
        // sections[0] is the preamble; the last starts with "--" (the closing delimiter).
        return sections.dropFirst().filter { !$0.hasPrefix("--") }.map { section in
            ParsedMessage(section.hasPrefix("\r\n") ? String(section.dropFirst()) : section)  // the CRLF after the delimiter line
        }
    }

    /// The body decoded from quoted-printable (or as is), with CRLF line endings.
    var decodedBody: String {
        guard header("Content-Transfer-Encoding")?.lowercased() == "quoted-printable" else { return body }
        return decodeQuotedPrintable(body)
    }
}

/// Decodes every `=?UTF-8?B?...?=` word; white space between two adjacent encoded-words is dropped.
func decodeEncodedWords(_ value: String) -> String {
    var out = ""
    var pending = Data()  // bytes of adjacent encoded-words, decoded together
    var rest = Substring(value)
    while let start = rest.range(of: "=?UTF-8?B?", options: .caseInsensitive),
        let end = rest[start.upperBound...].range(of: "?=")
    {
        let before = rest[..<start.lowerBound]
        if !before.isEmpty, !(before.allSatisfy(\.isWhitespace) && !pending.isEmpty) {
            out += String(decoding: pending, as: UTF8.self) + before
            pending = Data()
        }
        pending += Data(base64Encoded: String(rest[start.upperBound..<end.lowerBound])) ?? Data("<bad base64>".utf8)
        rest = rest[end.upperBound...]
    }
    return out + String(decoding: pending, as: UTF8.self) + rest
}

/// Decodes quoted-printable: soft breaks removed, `=XX` turned back into bytes.
func decodeQuotedPrintable(_ text: String) -> String {
    let joined = text.replacingOccurrences(of: "=\r\n", with: "")
    var bytes: [UInt8] = []
    var iterator = Array(joined.utf8).makeIterator()
    while let byte = iterator.next() {
        if byte == UInt8(ascii: "="), let high = iterator.next(), let low = iterator.next(),
            let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16)
        {
            bytes.append(value)
        } else {
            bytes.append(byte)
        }
    }
    return String(decoding: bytes, as: UTF8.self)
}
