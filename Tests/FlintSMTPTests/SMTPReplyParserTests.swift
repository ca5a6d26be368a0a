import Testing

@testable import FlintSMTP

@Suite("SMTP replies")
struct SMTPReplyParserTests {
    static func parse(_ lines: [String]) throws -> [SMTPReply] {
        var parser = SMTPReplyParser()
        return try lines.compactMap { try parser.feed(Array($0.utf8)) }
    }

    @Test("single-line replies, with text, without text and bare codes")
    func singleLine() throws {
        #expect(try Self.parse(["220 mail.example ESMTP ready"]) == [SMTPReply(code: 220, lines: ["mail.example ESMTP ready"])])
        #expect(try Self.parse(["250 "]) == [SMTPReply(code: 250, lines: [""])])
        #expect(try Self.parse(["354"]) == [SMTPReply(code: 354, lines: [""])])
    }

    @Test("multi-line replies continue with a hyphen and end with a space")
    func multiLine() throws {
        let replies = try Self.parse(["250-mail.example", "250-SIZE 1000", "250-auth plain LOGIN", "250 STARTTLS", "221 bye"])
        #expect(replies.count == 2)
        #expect(replies[0].code == 250)
        #expect(replies[0].lines == ["mail.example", "SIZE 1000", "auth plain LOGIN", "STARTTLS"])
        #expect(replies[0].extensions == [["SIZE", "1000"], ["AUTH", "PLAIN", "LOGIN"], ["STARTTLS"]])
        #expect(replies[0].description == "250 mail.example / SIZE 1000 / auth plain LOGIN / STARTTLS")
        #expect(replies[1] == SMTPReply(code: 221, lines: ["bye"]))
    }

    @Test("a line is not complete until its last line arrives")
    func incomplete() throws {
        var parser = SMTPReplyParser()
        #expect(try parser.feed(Array("250-first".utf8)) == nil)
        #expect(parser.isMidReply)
        #expect(try parser.feed(Array("250 last".utf8)) == SMTPReply(code: 250, lines: ["first", "last"]))
        #expect(!parser.isMidReply)
    }

    @Test(
        "lines that are not SMTP replies are protocol violations",
        arguments: [["hello"], ["25"], ["2x0 ok"], ["650 what"], ["199 low"], ["250+ok"], ["250-a", "251 b"], ["+OK POP3 ready"]])
    func malformed(_ lines: [String]) {
        let error = #expect(throws: SMTPError.self) { _ = try Self.parse(lines) }
        guard case .protocolViolation = error else {
            Issue.record("\(lines): \(String(describing: error))")
            return
        }
    }

    @Test("an endless multi-line reply is cut off")
    func tooManyLines() {
        #expect(throws: SMTPError.self) { _ = try Self.parse(Array(repeating: "250-x", count: 1000)) }
    }

    @Test("unexpected replies map to transient (4xx), permanent (5xx) or a protocol violation")
    func failures() {
        #expect(SMTPReply(code: 451, lines: ["later"]).failure(after: "DATA") == .transient(code: 451, reply: "451 later"))
        #expect(SMTPReply(code: 550, lines: ["no"]).failure(after: "RCPT TO") == .permanent(code: 550, reply: "550 no"))
        guard case .protocolViolation = SMTPReply(code: 250, lines: ["?"]).failure(after: "DATA") else {
            Issue.record("250 after DATA is not a protocol violation")
            return
        }
        #expect(SMTPError.transient(code: 451, reply: "").isPermanent == false)
        #expect(SMTPError.timeout("x").isPermanent == false)
        #expect(SMTPError.connection("x").isPermanent == false)
        #expect(SMTPError.permanent(code: 550, reply: "").isPermanent)
        #expect(SMTPError.tls("x").isPermanent)
    }
}
