#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Header rendering: RFC 2047 encoded-words for non-ASCII text, mailboxes, and folding into lines of at most 76
/// characters where the value allows it.
enum MIMEHeaders {
    /// The longest line a header is folded to when it has spaces to fold at.
    static let lineLimit = 76

    /// `Name: value` for free text (Subject, extra headers): kept as it is when it is ASCII, otherwise (or when it
    /// could be mistaken for encoded-words, or has a word too long for a line) as UTF-8 base64 encoded-words.
    static func unstructured(_ name: String, _ value: String) -> String {
        let words = value.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        let plain = value.utf8.allSatisfy { $0 < 127 } && !value.contains("=?") && words.allSatisfy { $0.utf8.count < 900 }
        if plain { return fold(name, words) }
        return fold(name, encodedWords(value, firstLimit: lineLimit - name.utf8.count - 2))
    }

    /// `Name: mailbox, mailbox` for address fields.
    static func addresses(_ name: String, _ list: [MailAddress]) -> String {
        var tokens: [String] = []
        for (index, address) in list.enumerated() {
            var words = mailbox(address)
            if index < list.count - 1, let last = words.popLast() { words.append(last + ",") }
            tokens += words
        }
        return fold(name, tokens)
    }

    /// One mailbox as words: `a@b`, `"Name" <a@b>` or `=?UTF-8?B?...?= <a@b>`.
    static func mailbox(_ address: MailAddress) -> [String] {
        guard let name = address.name, !name.isEmpty else { return [address.address] }
        let angle = "<\(address.address)>"
        if name.utf8.allSatisfy({ $0 >= 32 && $0 < 127 }) {
            let escaped = name.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"")
            return ["\"\(escaped)\"", angle]
        }
        return encodedWords(name, firstLimit: 75) + [angle]
    }

    /// `text` as UTF-8 base64 encoded-words (`=?UTF-8?B?...?=`), each at most 75 characters (the first at most
    /// `firstLimit`, to fit beside the field name), never splitting a character's UTF-8 sequence between two words.
    static func encodedWords(_ text: String, firstLimit: Int = 75) -> [String] {
        var words: [String] = []
        var chunk: [UInt8] = []
        func capacity() -> Int {
            let limit = words.isEmpty ? min(max(firstLimit, 16), 75) : 75
            return (limit - 12) / 4 * 3
        }
        for scalar in text.unicodeScalars {
            let bytes = Array(String(scalar).utf8)
            if chunk.count + bytes.count > capacity() {
                words.append(encodedWord(chunk))
                chunk = []
            }
            chunk += bytes
        }
        if !chunk.isEmpty || words.isEmpty { words.append(encodedWord(chunk)) }
        return words
    }

    private static func encodedWord(_ bytes: [UInt8]) -> String {
        "=?UTF-8?B?" + Data(bytes).base64EncodedString() + "?="
    }

    /// `Name: ` and the words separated by single spaces, starting a new line (CRLF and a space) before a word that
    /// would pass `lineLimit`. A line is never left holding only white space.
    static func fold(_ name: String, _ words: [String]) -> String {
        var out = ""
        var line = name + ":"
        var lineHasWord = false
        for word in words {
            if lineHasWord, !word.isEmpty, line.utf8.count + 1 + word.utf8.count > lineLimit {
                out += line + "\r\n"
                line = " " + word
            } else {
                line += " " + word
            }
            lineHasWord = lineHasWord || !word.isEmpty
        }
        return out + line + "\r\n"
    }

    /// `text` with control characters shown as `?`, for error messages.
    static func printable(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.prefix(80).map { $0.value < 32 || $0.value == 127 ? "?" : $0 }))
    }
}
