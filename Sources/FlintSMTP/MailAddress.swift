/// A mailbox: an address and, optionally, the name shown beside it.
public struct MailAddress: Sendable, Equatable, Hashable {
    /// `local@domain`, ASCII only.
    public var address: String
    /// The display name; any Unicode (non-ASCII names are sent RFC 2047-encoded).
    public var name: String?

    /// A mailbox with an optional display name.
    public init(_ address: String, name: String? = nil) {
        self.address = address
        self.name = name
    }

    /// Checks that the address can go in an SMTP envelope and a header as it is: printable ASCII, one `@` with text
    /// on both sides, no spaces, angle brackets, quotes or line breaks; and that the name has no line breaks.
    /// - Throws: `SMTPError.invalidMessage`.
    public func validate() throws(SMTPError) {
        let bytes = Array(address.utf8)
        guard !bytes.isEmpty, bytes.count <= 254 else { throw .invalidMessage("an address is empty or longer than 254 bytes") }
        let forbidden: Set<UInt8> = [
            UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\""), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "\\"),
        ]
        guard bytes.allSatisfy({ $0 > 32 && $0 < 127 && !forbidden.contains($0) }) else {
            throw .invalidMessage("the address '\(MIMEHeaders.printable(address))' has spaces, line breaks, non-ASCII or forbidden characters")
        }
        guard let at = bytes.lastIndex(of: UInt8(ascii: "@")), at > 0, at < bytes.count - 1 else {
            throw .invalidMessage("the address '\(address)' is not local@domain")
        }
        if let name, name.contains(where: \.isNewline) || name.unicodeScalars.contains(where: { $0.value < 32 || $0.value == 127 }) {
            throw .invalidMessage("the name for <\(address)> contains a line break or control character")
        }
    }

    /// The domain part, after the last `@`.
    var domain: Substring {
        guard let at = address.lastIndex(of: "@") else { return "" }
        return address[address.index(after: at)...]
    }
}
