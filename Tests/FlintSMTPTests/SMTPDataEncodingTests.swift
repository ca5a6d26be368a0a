import Foundation
import Testing

@testable import FlintSMTP

@Suite("DATA payload")
struct SMTPDataEncodingTests {
    static func payload(_ text: String) -> String {
        String(decoding: SMTPDataEncoding.payload(text), as: UTF8.self)
    }

    @Test("lines starting with a dot get a second dot, and the payload ends with CRLF . CRLF")
    func dotStuffing() {
        #expect(
            Self.payload("Subject: x\r\n\r\n.\r\n..two\r\nmid.dle\r\n. space\r\n") == "Subject: x\r\n\r\n..\r\n...two\r\nmid.dle\r\n.. space\r\n.\r\n"
        )
        #expect(Self.payload(".first\r\nlast") == "..first\r\nlast\r\n.\r\n")
        #expect(Self.payload("") == "\r\n.\r\n")
    }

    @Test("a rendered body line that starts with a dot cannot end DATA early")
    func renderedDot() throws {
        let message = MailMessage(from: MailAddress("a@b.example"), to: [MailAddress("c@d.example")], subject: "s", text: "one\n.\ntwo\n")
        let payload = Self.payload(try MIMEMessage.render(message, messageID: "m@b.example", date: .init(timeIntervalSince1970: 0)))
        #expect(payload.components(separatedBy: "\r\n.\r\n").count == 2)
        #expect(payload.hasSuffix("two\r\n.\r\n"))
        #expect(payload.contains("\r\none\r\n..\r\ntwo\r\n"))
    }
}
