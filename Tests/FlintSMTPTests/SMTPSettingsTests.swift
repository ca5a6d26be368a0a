import FlintSMTP
import Testing

@Suite("SMTP settings")
struct SMTPSettingsTests {
    @Test(
        "URLs choose the security mode, the default port and the credentials",
        arguments: [
            ("smtp://user:pass@mail.example:587", "mail.example", 587, SMTPSettings.Security.startTLS, "user", "pass"),
            ("smtp://user:pass@mail.example", "mail.example", 587, .startTLS, "user", "pass"),
            ("smtps://user:pass@mail.example", "mail.example", 465, .implicitTLS, "user", "pass"),
            ("smtps://mail.example:2465", "mail.example", 2465, .implicitTLS, nil, nil),
            ("smtp://127.0.0.1:2525?security=none", "127.0.0.1", 2525, .none, nil, nil),
            ("smtp://relay.local?security=none", "relay.local", 25, .none, nil, nil),
            ("smtp://mail.example?security=tls", "mail.example", 465, .implicitTLS, nil, nil),
            ("SMTP://mail.example?security=STARTTLS", "mail.example", 587, .startTLS, nil, nil),
            ("smtp://ap%40p%3Auser:p%40ss%3Aw%2Fo%25rd@[::1]:25", "::1", 25, .startTLS, "ap@p:user", "p@ss:w/o%rd"),
        ] as [(String, String, Int, SMTPSettings.Security, String?, String?)])
    func parsing(_ c: (String, String, Int, SMTPSettings.Security, String?, String?)) throws {
        let settings = try SMTPSettings(url: c.0)
        #expect(settings.host == c.1)
        #expect(settings.port == c.2)
        #expect(settings.security == c.3)
        #expect(settings.username == c.4)
        #expect(settings.password == c.5)
        #expect(settings.verifyCertificate)
        #expect(settings.trustRootsFile == nil)
        #expect(settings.maxAttempts == 4)
        #expect(settings.connectTimeout == .seconds(10))
        #expect(settings.commandTimeout == .seconds(30))
        #expect(settings.initialBackoff == .seconds(1))
    }

    @Test("query options set the EHLO name, the CA file and certificate checks")
    func options() throws {
        let settings = try SMTPSettings(url: "smtps://u:p@mail.example?helo=node1.flint.example&ca=/etc/flint/ca.pem&verify=false")
        #expect(settings.heloName == "node1.flint.example")
        #expect(settings.trustRootsFile == "/etc/flint/ca.pem")
        #expect(!settings.verifyCertificate)
        #expect(try SMTPSettings(url: "smtp://mail.example").heloName == "localhost")
    }

    @Test(
        "unusable URLs are refused with a message",
        arguments: [
            "http://mail.example", "mail.example:587", "smtp://", "smtp://mail.example:0", "smtp://mail.example:70000",
            "smtp://mail.example/path", "smtp://mail.example?security=maybe", "smtps://mail.example?security=none",
            "smtps://mail.example?security=starttls", "smtp://mail.example?verify=perhaps", "smtp://mail.example?port=25",
            "smtp://mail.example?helo=two%20words", "smtp://mail.example?ca=", "smtp://:secret@mail.example",
        ])
    func refused(_ url: String) {
        let error = #expect(throws: SMTPError.self) { _ = try SMTPSettings(url: url) }
        guard case .invalidSettings(let message) = error else {
            Issue.record("\(url): \(String(describing: error))")
            return
        }
        #expect(!message.isEmpty)
        #expect(!message.contains("secret"))
    }

    @Test("the description never shows the password")
    func description() throws {
        let settings = try SMTPSettings(url: "smtp://flint:hunter2@mail.example")
        #expect(!settings.description.contains("hunter2"))
        #expect(settings.description.contains("flint"))
        #expect(!String(describing: SMTPError.invalidSettings("x")).isEmpty)
    }

    @Test("settings made in code are checked before use")
    func validation() {
        #expect(throws: SMTPError.self) { try SMTPSettings(host: "mail.example", port: 25, security: .none, maxAttempts: 0).validate() }
        #expect(throws: SMTPError.self) { try SMTPSettings(host: "mail.example", port: 25, security: .none, username: "u").validate() }
        #expect(throws: SMTPError.self) { try SMTPSettings(host: "", port: 25, security: .none).validate() }
        #expect(throws: SMTPError.self) { try SMTPSettings(host: "a", port: 25, security: .none, heloName: "a\r\nb").validate() }
        #expect(throws: Never.self) { try SMTPSettings(host: "mail.example", port: 25, security: .none).validate() }
    }
}
