import FlintSMTP
import Foundation
import Logging
import Testing

@Suite("SMTP delivery to a real server", .enabled(if: TestServer.current != nil, "FLINT_TEST_SMTP_HOST is not set (scripts/smtp-server start)"))
struct SMTPClientIntegrationTests {
    let server =
        TestServer.current
        ?? TestServer(
            host: "", startTLSPort: 0, tlsPort: 0, plainPort: 0, loginPort: 0, user: "", password: "", ca: "", maildir: ""
        )

    static func message(to recipient: String = "ada@example.com", subject: String = "Your sign-in link") -> MailMessage {
        MailMessage(
            from: MailAddress("noreply@flint.example", name: "Flint Äuth"), to: [MailAddress(recipient, name: "Ada Lovelace")],
            replyTo: MailAddress("help@flint.example"), subject: subject,
            text: "Hello Ada,\n\nSign in: https://flint.example/link?code=123&x=é\n.\n.hidden line\nBye\n",
            html: "<p>Hello Ada,</p>\n<p><a href=\"https://flint.example/link?code=123\">Sign in</a> ☃</p>\n",
            headers: [MailHeader("X-Flint-Project", "demo-project")]
        )
    }

    func send(_ message: MailMessage, _ settings: SMTPSettings, logs: LogRecorder = LogRecorder()) async throws -> SMTPReceipt {
        try await SMTPClient(settings: settings, logger: logs.logger()).send(message)
    }

    /// Sends `message`, expecting an `SMTPError`, and returns it.
    func failure(_ message: MailMessage, _ settings: SMTPSettings, logs: LogRecorder = LogRecorder()) async -> SMTPError? {
        do {
            let receipt = try await send(message, settings, logs: logs)
            Issue.record("delivered unexpectedly: \(receipt)")
            return nil
        } catch let error as SMTPError {
            return error
        } catch {
            Issue.record("not an SMTPError: \(error)")
            return nil
        }
    }

    @Test("STARTTLS with AUTH PLAIN delivers a multipart message whose subject, names, parts and headers survive")
    func startTLS() async throws {
        let subject = "Votre lien de connexion — ログイン 🔐 " + String(repeating: "très long ", count: 8)
        let logs = LogRecorder()
        let message = Self.message(subject: subject)
        let receipt = try await send(message, server.settings(port: server.startTLSPort, security: .startTLS), logs: logs)
        #expect(receipt.attempts == 1)
        #expect(receipt.serverReply.hasPrefix("250 "))

        let stored = ParsedMessage(try await server.stored(messageID: receipt.messageID))
        #expect(stored.header("X-Test-Port") == "starttls")
        #expect(stored.header("X-Test-Auth-User") == server.user)
        #expect(stored.header("X-Test-Envelope-From") == "noreply@flint.example")
        #expect(stored.header("X-Test-Envelope-To") == "ada@example.com")
        #expect(stored.decoded("Subject") == subject)
        #expect(stored.decoded("From") == "Flint Äuth <noreply@flint.example>")
        #expect(stored.header("To") == "\"Ada Lovelace\" <ada@example.com>")
        #expect(stored.header("Reply-To") == "help@flint.example")
        #expect(stored.header("X-Flint-Project") == "demo-project")
        #expect(stored.header("MIME-Version") == "1.0")
        #expect(stored.header("Date")?.hasSuffix("+0000") == true)
        let parts = stored.parts()
        try #require(parts.count == 2)
        #expect(parts[0].header("Content-Type") == "text/plain; charset=UTF-8")
        #expect(parts[0].decodedBody == message.text.replacingOccurrences(of: "\n", with: "\r\n"))
        #expect(parts[1].header("Content-Type") == "text/html; charset=UTF-8")
        #expect(parts[1].decodedBody == message.html?.replacingOccurrences(of: "\n", with: "\r\n"))

        let log = logs.lines.joined(separator: "\n")
        #expect(log.contains("mail delivered"))
        #expect(log.contains("smtp.attempts=1"))
        #expect(log.contains("smtp.code=250"))
        #expect(!log.contains(server.password))
        #expect(!log.contains("Sign in"))
    }

    @Test("implicit TLS with AUTH, configured from an smtps:// URL")
    func implicitTLS() async throws {
        let password = server.password.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        var settings = try SMTPSettings(url: "smtps://\(server.user):\(password)@\(server.host):\(server.tlsPort)?ca=\(server.ca)&helo=tests.example")
        settings.initialBackoff = .milliseconds(50)
        let receipt = try await send(Self.message(), settings)
        #expect(receipt.attempts == 1)
        let stored = ParsedMessage(try await server.stored(messageID: receipt.messageID))
        #expect(stored.header("X-Test-Port") == "tls")
        #expect(stored.header("X-Test-Auth-User") == server.user)
        #expect(stored.decoded("Subject") == "Your sign-in link")
        #expect(stored.parts().count == 2)
    }

    @Test("AUTH LOGIN when the server offers only LOGIN")
    func authLogin() async throws {
        let receipt = try await send(Self.message(), server.settings(port: server.loginPort, security: .startTLS))
        let stored = ParsedMessage(try await server.stored(messageID: receipt.messageID))
        #expect(stored.header("X-Test-Port") == "login")
        #expect(stored.header("X-Test-Auth-User") == server.user)
    }

    @Test("the host name localhost is checked against the certificate's DNS name (SNI)")
    func hostName() async throws {
        var settings = server.settings(port: server.tlsPort, security: .implicitTLS)
        settings.host = "localhost"
        let receipt = try await send(Self.message(), settings)
        #expect(receipt.attempts == 1)
    }

    @Test("plain SMTP without AUTH when security none is chosen; a text-only message is a single part")
    func plain() async throws {
        var message = Self.message()
        message.html = nil
        let receipt = try await send(message, server.settings(port: server.plainPort, security: .none, authenticate: false))
        let stored = ParsedMessage(try await server.stored(messageID: receipt.messageID))
        #expect(stored.header("X-Test-Port") == "plain")
        #expect(stored.header("Content-Type") == "text/plain; charset=UTF-8")
        #expect(stored.decodedBody == message.text.replacingOccurrences(of: "\n", with: "\r\n"))
    }

    @Test("a server that does not offer STARTTLS is refused when STARTTLS is configured, before any credentials are sent")
    func noStartTLS() async throws {
        let error = await failure(Self.message(), server.settings(port: server.plainPort, security: .startTLS))
        guard case .tls = error else {
            Issue.record("expected a TLS error, got \(String(describing: error))")
            return
        }
    }

    @Test("a wrong password is a permanent error, not retried, and never logged")
    func wrongPassword() async throws {
        var settings = server.settings(port: server.startTLSPort, security: .startTLS)
        settings.password = "not-the-password-\(UUID().uuidString)"
        let logs = LogRecorder()
        let error = await failure(Self.message(), settings, logs: logs)
        #expect(error?.isPermanent == true)
        #expect(error?.replyCode == 535)
        let log = logs.lines.joined(separator: "\n")
        #expect(log.contains("mail not delivered"))
        #expect(!log.contains("trying again"))
        #expect(!log.contains(settings.password ?? "?"))
    }

    @Test("a 451 for the tempfail recipient is retried and delivered on the second attempt")
    func tempfail() async throws {
        let logs = LogRecorder()
        let receipt = try await send(
            Self.message(to: "tempfail-\(UUID().uuidString.prefix(8))@example.com"), server.settings(port: server.startTLSPort, security: .startTLS),
            logs: logs)
        #expect(receipt.attempts == 2)
        _ = try await server.stored(messageID: receipt.messageID)
        let log = logs.lines.joined(separator: "\n")
        #expect(log.contains("trying again"))
        #expect(log.contains("smtp.code=451"))
        #expect(log.contains("smtp.attempts=2"))
    }

    @Test("a 550 for the rejected recipient is a permanent error at once")
    func rejected() async throws {
        let logs = LogRecorder()
        let error = await failure(Self.message(to: "reject@example.com"), server.settings(port: server.tlsPort, security: .implicitTLS), logs: logs)
        guard case .permanent(let code, let reply) = error else {
            Issue.record("expected a permanent error, got \(String(describing: error))")
            return
        }
        #expect(code == 550)
        #expect(reply.contains("rejected"))
        #expect(!logs.lines.joined().contains("trying again"))
    }

    @Test("a certificate that is not trusted is a TLS error (implicit TLS and STARTTLS)", arguments: [true, false])
    func untrusted(_ implicit: Bool) async throws {
        var settings = server.settings(port: implicit ? server.tlsPort : server.startTLSPort, security: implicit ? .implicitTLS : .startTLS)
        settings.trustRootsFile = nil
        let error = await failure(Self.message(), settings)
        guard case .tls = error else {
            Issue.record("expected a TLS error, got \(String(describing: error))")
            return
        }
    }

    @Test("verify=false accepts the untrusted certificate")
    func noVerification() async throws {
        var settings = server.settings(port: server.tlsPort, security: .implicitTLS)
        settings.trustRootsFile = nil
        settings.verifyCertificate = false
        #expect(try await send(Self.message(), settings).attempts == 1)
    }
}
