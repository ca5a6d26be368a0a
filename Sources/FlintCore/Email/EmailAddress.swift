/// Email addresses as Firebase treats them: compared and stored lower-cased, checked for a plausible shape only
/// (one `@`, a non-empty local part, a domain with a dot or `localhost`, no spaces or control characters).
package enum EmailAddress {
    /// Longest address accepted (RFC 5321's path limit).
    package static let maxLength = 254

    /// The stored form of `text`: trimmed and lower-cased, or `nil` when it is not an address.
    package static func normalize(_ text: String) -> String? {
        let trimmed = text.trimmingASCIIWhitespace().lowercased()
        guard !trimmed.isEmpty, trimmed.utf8.count <= maxLength else { return nil }
        let parts = trimmed.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, let local = parts.first, let domain = parts.last, !local.isEmpty, local.utf8.count <= 64,
            !domain.isEmpty
        else { return nil }
        for scalar in trimmed.unicodeScalars {
            if scalar.value < 0x21 || scalar.value == 0x7F || "()<>,;:\\\"[]".unicodeScalars.contains(scalar) { return nil }
        }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.allSatisfy({ !$0.isEmpty && !$0.hasPrefix("-") && !$0.hasSuffix("-") }) else { return nil }
        guard labels.count >= 2 || domain == "localhost" else { return nil }
        return trimmed
    }
}

extension String {
    /// The string without leading and trailing ASCII spaces, tabs and line breaks.
    func trimmingASCIIWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
