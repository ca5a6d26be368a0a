#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Renders a `MailMessage` as an Internet message (RFC 5322 with MIME): CRLF line endings, 7-bit clean, non-ASCII
/// names and subjects as RFC 2047 encoded-words, bodies as UTF-8 quoted-printable, and a `multipart/alternative`
/// (plain text first, HTML preferred) when there is an HTML body. Public so that callers and tests can see exactly
/// what is sent.
public enum MIMEMessage {
    /// The message's header and body.
    /// - Parameters:
    ///   - message: what to render.
    ///   - messageID: the `Message-ID`, with or without angle brackets (`makeMessageID(domain:)` makes one).
    ///   - date: the `Date` header's instant, written in UTC.
    /// - Returns: ASCII text whose lines all end in CRLF (not yet dot-stuffed for DATA).
    /// - Throws: `SMTPError.invalidMessage` for header injection (a line break in a name, subject, header value or
    ///   address), a malformed address, header name or message ID, or no recipients.
    public static func render(_ message: MailMessage, messageID: String, date: Date) throws -> String {
        try message.validate()
        let id = try bareMessageID(messageID)
        var head = "Date: \(RFC5322Date.format(date))\r\n"
        head += MIMEHeaders.addresses("From", [message.from])
        head += MIMEHeaders.addresses("To", message.to)
        if let replyTo = message.replyTo { head += MIMEHeaders.addresses("Reply-To", [replyTo]) }
        head += MIMEHeaders.unstructured("Subject", message.subject)
        head += "Message-ID: <\(id)>\r\n"
        head += "MIME-Version: 1.0\r\n"
        for header in message.headers { head += MIMEHeaders.unstructured(header.name, header.value) }

        let textPart =
            "Content-Type: text/plain; charset=UTF-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n"
            + QuotedPrintable.encode(message.text)
        guard let html = message.html else { return head + textPart }
        let htmlPart =
            "Content-Type: text/html; charset=UTF-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n"
            + QuotedPrintable.encode(html)
        // "=_" cannot occur in quoted-printable or base64 text, so the boundary cannot collide with a body.
        let boundary = "=_flint_" + hexHash(id)
        return head + "Content-Type: multipart/alternative; boundary=\"\(boundary)\"\r\n\r\n"
            + "This is a multi-part message in MIME format.\r\n"
            + "--\(boundary)\r\n" + textPart
            + "--\(boundary)\r\n" + htmlPart
            + "--\(boundary)--\r\n"
    }

    /// A new unique message ID, `<32 random hex digits>@domain`, without angle brackets.
    public static func makeMessageID(domain: some StringProtocol) -> String {
        var generator = SystemRandomNumberGenerator()
        let random = (0..<2).map { _ in hex64(generator.next()) }.joined()
        let host = domain.isEmpty ? "flint.invalid" : String(domain)
        return "\(random)@\(host)"
    }

    /// The ID without its angle brackets, checked to be printable ASCII with one `@` and nothing that could end the
    /// header.
    private static func bareMessageID(_ messageID: String) throws(SMTPError) -> String {
        var id = Substring(messageID)
        if id.hasPrefix("<"), id.hasSuffix(">") { id = id.dropFirst().dropLast() }
        guard !id.isEmpty, id.utf8.allSatisfy({ $0 > 32 && $0 < 127 && $0 != UInt8(ascii: "<") && $0 != UInt8(ascii: ">") }),
            id.contains("@")
        else {
            throw .invalidMessage("the message ID '\(MIMEHeaders.printable(messageID))' is not id@domain in printable ASCII")
        }
        return String(id)
    }

    /// FNV-1a over the text, as 16 hex digits: a boundary that is stable for a given message ID.
    private static func hexHash(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hex64(hash)
    }

    private static func hex64(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
