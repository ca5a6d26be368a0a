import FlintSMTP
import Foundation
import Testing

@Suite("MIME rendering")
struct MIMEMessageTests {
    static let date = Date(timeIntervalSince1970: 1_795_000_000)  // Wed, 18 Nov 2026 11:06:40 +0000

    static func message(
        subject: String = "Hello", text: String = "Hi there.\n", html: String? = nil, headers: [MailHeader] = []
    ) -> MailMessage {
        MailMessage(
            from: MailAddress("noreply@flint.example", name: "Flint"), to: [MailAddress("ada@example.com", name: "Ada Lovelace")],
            subject: subject, text: text, html: html, headers: headers
        )
    }

    @Test("the header has Date, From, To, Subject, Message-ID and MIME-Version, and every line ends in CRLF")
    func header() throws {
        let rendered = try MIMEMessage.render(Self.message(), messageID: "abc@flint.example", date: Self.date)
        let parsed = ParsedMessage(rendered)
        #expect(parsed.header("Date") == "Wed, 18 Nov 2026 11:06:40 +0000")
        #expect(parsed.header("From") == "\"Flint\" <noreply@flint.example>")
        #expect(parsed.header("To") == "\"Ada Lovelace\" <ada@example.com>")
        #expect(parsed.header("Subject") == "Hello")
        #expect(parsed.header("Message-ID") == "<abc@flint.example>")
        #expect(parsed.header("MIME-Version") == "1.0")
        #expect(parsed.header("Content-Type") == "text/plain; charset=UTF-8")
        #expect(parsed.header("Content-Transfer-Encoding") == "quoted-printable")
        #expect(parsed.decodedBody == "Hi there.\r\n")
        #expect(!rendered.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
        #expect(!rendered.replacingOccurrences(of: "\r\n", with: "").contains("\r"))
        #expect(rendered.hasSuffix("\r\n"))
    }

    @Test(
        "dates are RFC 5322 in UTC",
        arguments: [
            (0.0, "Thu, 1 Jan 1970 00:00:00 +0000"),
            (951_782_400, "Tue, 29 Feb 2000 00:00:00 +0000"),
            (-1, "Wed, 31 Dec 1969 23:59:59 +0000"),
            (4_102_444_799.9, "Thu, 31 Dec 2099 23:59:59 +0000"),
        ])
    func dates(_ seconds: Double, _ expected: String) throws {
        let rendered = try MIMEMessage.render(Self.message(), messageID: "a@b", date: Date(timeIntervalSince1970: seconds))
        #expect(ParsedMessage(rendered).header("Date") == expected)
    }

    @Test(
        "a non-ASCII subject is split into UTF-8 base64 encoded-words of at most 75 characters that decode back",
        arguments: [
            "Votre code de connexion est prêt",
            "Ваш код для входа в приложение: подтвердите адрес электронной почты как можно скорее",
            "ログインコードをお送りします。このメールに心当たりがない場合は無視してください。",
            "🔐 Sign-in link 👩‍👩‍👧‍👦 family emoji and more emoji 🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉",
            "=?UTF-8?B?not really?= ASCII that looks encoded",
        ])
    func encodedSubject(_ subject: String) throws {
        let rendered = try MIMEMessage.render(Self.message(subject: subject), messageID: "a@b", date: Self.date)
        let parsed = ParsedMessage(rendered)
        #expect(parsed.decoded("Subject") == subject)
        let subjectLines = rendered.components(separatedBy: "\r\n").drop { !$0.hasPrefix("Subject:") }
            .prefix { $0.hasPrefix("Subject:") || $0.hasPrefix(" ") }
        #expect(subjectLines.count > 0)
        for line in subjectLines {
            #expect(line.utf8.count <= 76, "\(line)")
            for word in line.split(separator: " ") where word.hasPrefix("=?") {
                #expect(word.count <= 75)
                // Each word is whole UTF-8 on its own: no character is split between two words.
                let payload = word.dropFirst(10).dropLast(2)
                let bytes = try #require(Data(base64Encoded: String(payload)))
                #expect(String(data: bytes, encoding: .utf8) != nil, "\(word)")
            }
        }
        #expect(rendered.utf8.allSatisfy { $0 < 128 })
    }

    @Test("non-ASCII display names are encoded, ASCII ones quoted with escapes")
    func names() throws {
        var message = Self.message()
        message.from = MailAddress("noreply@flint.example", name: "Flïnt Äuth")
        message.to = [MailAddress("a@example.com", name: "Say \"hi\" \\ there"), MailAddress("b@example.com")]
        message.replyTo = MailAddress("help@flint.example", name: "Équipe d’assistance")
        let parsed = ParsedMessage(try MIMEMessage.render(message, messageID: "a@b", date: Self.date))
        #expect(parsed.header("From")?.hasPrefix("=?UTF-8?B?") == true)
        #expect(parsed.decoded("From") == "Flïnt Äuth <noreply@flint.example>")
        #expect(parsed.header("To") == #""Say \"hi\" \\ there" <a@example.com>, b@example.com"#)
        #expect(parsed.decoded("Reply-To") == "Équipe d’assistance <help@flint.example>")
    }

    @Test("many recipients are folded onto lines of at most 76 characters")
    func folding() throws {
        var message = Self.message()
        message.to = (1...12).map { MailAddress("recipient\($0)@example.com", name: "Recipient \($0)") }
        let rendered = try MIMEMessage.render(message, messageID: "a@b", date: Self.date)
        let lines = rendered.components(separatedBy: "\r\n\r\n")[0].components(separatedBy: "\r\n")
        #expect(lines.allSatisfy { $0.utf8.count <= 76 })
        #expect(lines.allSatisfy { !$0.trimmingCharacters(in: .whitespaces).isEmpty })
        let to = try #require(ParsedMessage(rendered).header("To"))
        #expect(to.components(separatedBy: ", ").count == 12)
        #expect(to.hasSuffix("\"Recipient 12\" <recipient12@example.com>"))
    }

    @Test("text and HTML go in a multipart/alternative, each part quoted-printable with lines of at most 76 characters")
    func multipart() throws {
        let text =
            "Bonjour ☃ !\n\n" + String(repeating: "Une très longue ligne sans fin ", count: 12) + "\n.hidden dot line\ntrailing space \nlast=line"
        let html = "<p>Bonjour&nbsp;☃</p>\r\n<p>" + String(repeating: "é", count: 200) + "</p>"
        let rendered = try MIMEMessage.render(Self.message(text: text, html: html), messageID: "id1@flint.example", date: Self.date)
        let parsed = ParsedMessage(rendered)
        #expect(parsed.header("Content-Type")?.hasPrefix("multipart/alternative; boundary=\"=_") == true)
        let parts = parsed.parts()
        try #require(parts.count == 2)
        #expect(parts[0].header("Content-Type") == "text/plain; charset=UTF-8")
        #expect(parts[1].header("Content-Type") == "text/html; charset=UTF-8")
        #expect(parts.allSatisfy { $0.header("Content-Transfer-Encoding") == "quoted-printable" })
        #expect(parts[0].decodedBody == text.replacingOccurrences(of: "\n", with: "\r\n") + "\r\n")
        #expect(parts[1].decodedBody == html + "\r\n")
        for line in rendered.components(separatedBy: "\r\n") {
            #expect(line.utf8.count <= 76, "\(line)")
            #expect(!line.hasSuffix(" ") && !line.hasSuffix("\t"), "trailing white space in '\(line)'")
        }
        #expect(rendered.utf8.allSatisfy { $0 < 128 })
        #expect(rendered.hasSuffix("--\r\n"))
    }

    @Test("quoted-printable keeps exactly 76-character lines whole and never splits an =XX escape")
    func quotedPrintableEdges() throws {
        let exact = String(repeating: "a", count: 76)
        let escapes = String(repeating: "=", count: 40)
        let rendered = try MIMEMessage.render(Self.message(text: exact + "\n" + escapes), messageID: "a@b", date: Self.date)
        let body = ParsedMessage(rendered).body
        #expect(body.components(separatedBy: "\r\n").first == exact)
        let escapeLines = body.components(separatedBy: "\r\n").dropFirst().filter { !$0.isEmpty }
        #expect(escapeLines.count == 2)
        for line in escapeLines {
            #expect(line.utf8.count <= 76)
            let escapes = line.count % 3 == 1 && line.hasSuffix("=") ? String(line.dropLast()) : line
            #expect(escapes == String(repeating: "=3D", count: escapes.count / 3), "\(line)")
        }
        #expect(ParsedMessage(rendered).decodedBody == exact + "\r\n" + escapes + "\r\n")
    }

    @Test("extra headers are rendered in order, non-ASCII values encoded")
    func extraHeaders() throws {
        let headers = [MailHeader("X-Flint-Project", "demo"), MailHeader("X-Note", "café")]
        let parsed = ParsedMessage(try MIMEMessage.render(Self.message(headers: headers), messageID: "a@b", date: Self.date))
        #expect(parsed.header("X-Flint-Project") == "demo")
        #expect(parsed.header("X-Note")?.hasPrefix("=?UTF-8?B?") == true)
        #expect(parsed.decoded("X-Note") == "café")
    }

    /// Each way a message can try to smuggle in a header or an envelope command, by name.
    static func spoil(_ message: inout MailMessage, _ how: String) {
        var m = message
        switch how {
        case "subject with LF": m.subject = "Hi\nBcc: victim@example.com"
        case "subject with CR": m.subject = "Hi\rBcc: victim@example.com"
        case "subject with CRLF": m.subject = "Hi\r\nBcc: victim@example.com"
        case "subject with U+2028": m.subject = "Hi\u{2028}there"
        case "name with CRLF": m.to[0].name = "Ada\r\nBcc: victim@example.com"
        case "address with CRLF": m.to[0].address = "ada@example.com\r\nRCPT TO:<x@y>"
        case "address with >": m.from.address = "a@b> SIZE=1"
        case "address with space": m.to[0].address = "ada lovelace@example.com"
        case "address without @": m.to[0].address = "ada"
        case "address with empty domain": m.to[0].address = "ada@"
        case "non-ASCII address": m.to[0].address = "adä@example.com"
        case "header value with LF": m.headers = [MailHeader("X-A", "1\nBcc: v@e.com")]
        case "header name with colon": m.headers = [MailHeader("X-A:", "1")]
        case "header name with space": m.headers = [MailHeader("X A", "1")]
        case "reserved header": m.headers = [MailHeader("bcc", "v@e.com")]
        case "no recipients": m.to = []
        default: Issue.record("no such case: \(how)")
        }
        message = m
    }

    @Test(
        "header injection and malformed addresses are refused",
        arguments: [
            "subject with LF",
            "subject with CR",
            "subject with CRLF",
            "subject with U+2028",
            "name with CRLF",
            "address with CRLF",
            "address with >",
            "address with space",
            "address without @",
            "address with empty domain",
            "non-ASCII address",
            "header value with LF",
            "header name with colon",
            "header name with space",
            "reserved header",
            "no recipients",
        ])
    func refused(_ name: String) {
        var message = Self.message()
        Self.spoil(&message, name)
        let error = #expect(throws: SMTPError.self, "\(name)") { _ = try MIMEMessage.render(message, messageID: "a@b", date: Self.date) }
        guard case .invalidMessage = error else {
            Issue.record("\(name): \(String(describing: error))")
            return
        }
        #expect(error?.isPermanent == true)
    }

    @Test("a message ID with a line break or without @ is refused; angle brackets are optional")
    func messageIDs() throws {
        #expect(throws: SMTPError.self) { _ = try MIMEMessage.render(Self.message(), messageID: "a@b\r\nBcc: x@y", date: Self.date) }
        #expect(throws: SMTPError.self) { _ = try MIMEMessage.render(Self.message(), messageID: "nodomain", date: Self.date) }
        let rendered = try MIMEMessage.render(Self.message(), messageID: "<a@b>", date: Self.date)
        #expect(ParsedMessage(rendered).header("Message-ID") == "<a@b>")
        let made = MIMEMessage.makeMessageID(domain: "flint.example")
        #expect(made.hasSuffix("@flint.example"))
        #expect(made.count == 32 + 1 + 13)
        #expect(made != MIMEMessage.makeMessageID(domain: "flint.example"))
    }
}
