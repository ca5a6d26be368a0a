/// An extra header field for a message, such as `List-Unsubscribe` or `X-Flint-Project`.
public struct MailHeader: Sendable, Equatable, Hashable {
    /// The field name: printable ASCII without spaces or a colon.
    public var name: String
    /// The value: any Unicode without line breaks (non-ASCII values are sent RFC 2047-encoded).
    public var value: String

    /// A header field.
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }

    /// Fields that the message renders itself and an extra header must not repeat.
    static let reserved: Set<String> = [
        "date", "from", "sender", "to", "cc", "bcc", "reply-to", "subject", "message-id", "mime-version", "content-type",
        "content-transfer-encoding",
    ]

    /// Checks the name's characters, that it is not one the message renders itself, and that the value has no line
    /// break or control character (which could start a header of the sender's choosing).
    /// - Throws: `SMTPError.invalidMessage`.
    public func validate() throws(SMTPError) {
        guard !name.isEmpty, name.utf8.allSatisfy({ $0 > 32 && $0 < 127 && $0 != UInt8(ascii: ":") }) else {
            throw .invalidMessage("the header name '\(MIMEHeaders.printable(name))' is not printable ASCII without spaces and colons")
        }
        guard !Self.reserved.contains(name.lowercased()) else { throw .invalidMessage("the header \(name) is set by the message itself") }
        guard !value.unicodeScalars.contains(where: { ($0.value < 32 && $0 != "\t") || $0.value == 127 || $0 == "\u{2028}" || $0 == "\u{2029}" })
        else {
            throw .invalidMessage("the value of the header \(name) contains a line break or control character")
        }
    }
}
