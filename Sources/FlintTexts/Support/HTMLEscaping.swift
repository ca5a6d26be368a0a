/// Escaping of text placed into HTML, shared by the email templates and the action pages.
enum HTMLEscaping {
    /// The characters replaced, with their character references.
    private static let references: [Unicode.Scalar: String] = ["&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;"]

    /// `text` with `&`, `<`, `>`, `"` and `'` replaced by character references, safe both as element
    /// content and inside a quoted attribute value (`href="…"`, `value='…'`).
    static func escape(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { references[$0] != nil }) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            if let reference = references[scalar] { out += reference } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }

    /// Escaped `text` with each line break turned into `<br>` (for multi-line phrases such as a sign-off).
    static func escapeLines(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { escape(String($0)) }.joined(separator: "<br>\n")
    }
}
