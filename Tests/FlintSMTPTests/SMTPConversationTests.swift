import Foundation
import Testing

@testable import FlintSMTP

@Suite("SMTP conversation")
struct SMTPConversationTests {
    static func settings(_ security: SMTPSettings.Security, user: String? = "flint", password: String? = "s3cret") -> SMTPSettings {
        SMTPSettings(host: "mail.example", port: 587, security: security, username: user, password: password, heloName: "node1.example")
    }

    static func reply(_ code: Int, _ lines: String...) -> SMTPReply {
        SMTPReply(code: code, lines: lines.isEmpty ? [""] : lines)
    }

    static func line(_ step: SMTPConversation.Step) -> String? {
        if case .send(let command) = step { return command.line }
        return nil
    }

    @Test("STARTTLS, EHLO again, AUTH PLAIN, MAIL, two RCPTs, DATA and the message")
    func startTLSFlow() throws {
        var c = SMTPConversation(
            settings: Self.settings(.startTLS), sender: "a@b.example", recipients: ["c@d.example", "e@f.example"], tlsActive: false)
        #expect(Self.line(try c.receive(Self.reply(220, "hi"))) == "EHLO node1.example")
        let tls = try c.receive(Self.reply(250, "mail.example", "STARTTLS", "SIZE 100"))
        #expect(tls == .send(SMTPCommand(line: "STARTTLS", name: "STARTTLS", upgradesToTLS: true)))
        #expect(try c.receive(Self.reply(220, "go ahead")) == .startTLS)
        #expect(Self.line(c.tlsStarted()) == "EHLO node1.example")
        let auth = try c.receive(Self.reply(250, "mail.example", "AUTH LOGIN PLAIN"))
        #expect(Self.line(auth) == "AUTH PLAIN " + Data("\0flint\0s3cret".utf8).base64EncodedString())
        if case .send(let command) = auth { #expect(command.name == "AUTH PLAIN") }
        #expect(Self.line(try c.receive(Self.reply(235, "ok"))) == "MAIL FROM:<a@b.example>")
        #expect(Self.line(try c.receive(Self.reply(250))) == "RCPT TO:<c@d.example>")
        #expect(Self.line(try c.receive(Self.reply(250))) == "RCPT TO:<e@f.example>")
        #expect(Self.line(try c.receive(Self.reply(251, "will forward"))) == "DATA")
        #expect(try c.receive(Self.reply(354, "go")) == .sendData)
        #expect(try c.receive(Self.reply(250, "queued")) == .delivered(Self.reply(250, "queued")))
        #expect(throws: SMTPError.self) { _ = try c.receive(Self.reply(250)) }
    }

    @Test("AUTH LOGIN when PLAIN is not offered (also the old AUTH= form)", arguments: [["AUTH LOGIN"], ["AUTH=LOGIN"]])
    func login(_ advertised: [String]) throws {
        var c = SMTPConversation(settings: Self.settings(.implicitTLS), sender: "a@b.example", recipients: ["c@d.example"], tlsActive: true)
        _ = try c.receive(Self.reply(220))
        #expect(Self.line(try c.receive(SMTPReply(code: 250, lines: ["mail.example"] + advertised))) == "AUTH LOGIN")
        #expect(Self.line(try c.receive(Self.reply(334, "VXNlcm5hbWU6"))) == Data("flint".utf8).base64EncodedString())
        #expect(Self.line(try c.receive(Self.reply(334, "UGFzc3dvcmQ6"))) == Data("s3cret".utf8).base64EncodedString())
        #expect(Self.line(try c.receive(Self.reply(235))) == "MAIL FROM:<a@b.example>")
    }

    @Test("a server without STARTTLS is refused when STARTTLS is configured")
    func noStartTLS() throws {
        var c = SMTPConversation(
            settings: Self.settings(.startTLS, user: nil, password: nil), sender: "a@b.example", recipients: ["c@d.example"], tlsActive: false)
        _ = try c.receive(Self.reply(220))
        let error = #expect(throws: SMTPError.self) { _ = try c.receive(Self.reply(250, "mail.example", "AUTH PLAIN")) }
        guard case .tls = error else {
            Issue.record("\(String(describing: error))")
            return
        }
    }

    @Test("credentials go in clear only with security none; a server without AUTH is refused when there are credentials")
    func credentialsInClear() throws {
        var c = SMTPConversation(settings: Self.settings(.none), sender: "a@b.example", recipients: ["c@d.example"], tlsActive: false)
        _ = try c.receive(Self.reply(220))
        #expect(Self.line(try c.receive(Self.reply(250, "mail.example", "AUTH PLAIN"))).map { $0.hasPrefix("AUTH PLAIN ") } == true)

        var d = SMTPConversation(settings: Self.settings(.none), sender: "a@b.example", recipients: ["c@d.example"], tlsActive: false)
        _ = try d.receive(Self.reply(220))
        let error = #expect(throws: SMTPError.self) { _ = try d.receive(Self.reply(250, "mail.example", "AUTH CRAM-MD5")) }
        #expect(error?.isPermanent == true)
        #expect(!String(describing: error).contains("s3cret"))
    }

    @Test("without ESMTP, HELO is used when neither TLS nor AUTH is needed")
    func helo() throws {
        var c = SMTPConversation(
            settings: Self.settings(.none, user: nil, password: nil), sender: "a@b.example", recipients: ["c@d.example"], tlsActive: false)
        _ = try c.receive(Self.reply(220))
        #expect(Self.line(try c.receive(Self.reply(502, "unknown"))) == "HELO node1.example")
        #expect(Self.line(try c.receive(Self.reply(250))) == "MAIL FROM:<a@b.example>")

        var d = SMTPConversation(settings: Self.settings(.startTLS), sender: "a@b.example", recipients: ["c@d.example"], tlsActive: false)
        _ = try d.receive(Self.reply(220))
        #expect(throws: SMTPError.permanent(code: 502, reply: "502 unknown")) { _ = try d.receive(Self.reply(502, "unknown")) }
    }

    @Test("refusals end the conversation: 4xx transient, 5xx permanent, at any point")
    func refusals() throws {
        var c = SMTPConversation(
            settings: Self.settings(.none, user: nil, password: nil), sender: "a@b.example", recipients: ["c@d.example"], tlsActive: false)
        #expect(throws: SMTPError.transient(code: 421, reply: "421 busy")) { _ = try c.receive(Self.reply(421, "busy")) }

        var d = SMTPConversation(settings: Self.settings(.implicitTLS), sender: "a@b.example", recipients: ["c@d.example"], tlsActive: true)
        _ = try d.receive(Self.reply(220))
        _ = try d.receive(Self.reply(250, "x", "AUTH PLAIN"))
        #expect(throws: SMTPError.permanent(code: 535, reply: "535 bad credentials")) { _ = try d.receive(Self.reply(535, "bad credentials")) }

        var e = SMTPConversation(
            settings: Self.settings(.none, user: nil, password: nil), sender: "a@b.example", recipients: ["c@d.example"], tlsActive: false)
        _ = try e.receive(Self.reply(220))
        _ = try e.receive(Self.reply(250))
        _ = try e.receive(Self.reply(250))
        #expect(throws: SMTPError.permanent(code: 550, reply: "550 no such user")) { _ = try e.receive(Self.reply(550, "no such user")) }
    }
}
