import FlintSMTP
import FlintTesting
import Foundation
import Logging
import Testing

/// Failures that need no SMTP server, only loopback sockets: a port nobody listens on and a server that never speaks.
@Suite("SMTP delivery failures without a server")
struct SMTPClientFailureTests {
    static func settings(port: Int) -> SMTPSettings {
        SMTPSettings(host: "127.0.0.1", port: port, security: .startTLS, connectTimeout: .seconds(5), initialBackoff: .milliseconds(10))
    }

    /// Sends a message, expecting an `SMTPError`, and returns it.
    static func failure(_ settings: SMTPSettings, logs: LogRecorder = LogRecorder()) async -> SMTPError? {
        let message = MailMessage(from: MailAddress("a@flint.example"), to: [MailAddress("b@example.com")], subject: "s", text: "t")
        do {
            let receipt = try await SMTPClient(settings: settings, logger: logs.logger()).send(message)
            Issue.record("delivered unexpectedly: \(receipt)")
            return nil
        } catch let error as SMTPError {
            return error
        } catch {
            Issue.record("not an SMTPError: \(error)")
            return nil
        }
    }

    @Test("a closed port is a connection error after every attempt")
    func closed() async throws {
        var settings = Self.settings(port: try await closedPort())
        settings.maxAttempts = 3
        settings.initialBackoff = .milliseconds(20)
        let logs = LogRecorder()
        let error = await Self.failure(settings, logs: logs)
        guard case .connection = error else {
            Issue.record("expected a connection error, got \(String(describing: error))")
            return
        }
        #expect(logs.lines.filter { $0.contains("trying again") }.count == 2)
        #expect(logs.lines.last?.contains("smtp.attempts=3") == true)
    }

    @Test("a server that never answers is a timeout, and the connection is closed")
    func silent() async throws {
        let silent = try await SilentServer.start()
        var settings = Self.settings(port: silent.port)
        settings.commandTimeout = .milliseconds(300)
        settings.maxAttempts = 2
        settings.initialBackoff = .milliseconds(10)
        let error = await Self.failure(settings)
        // The client closed both connections it gave up on (the server notices once the FIN arrives: each close is
        // recorded, and the second one ends the wait).
        _ = await silent.counts.closes.wait(for: 2)
        #expect(silent.counts.accepted == 2)
        #expect(silent.counts.closed == 2)
        try await silent.stop()
        guard case .timeout(let message) = error else {
            Issue.record("expected a timeout, got \(String(describing: error))")
            return
        }
        #expect(message.contains("greeting"))
    }

    @Test("an invalid message or invalid settings are refused before any connection is tried")
    func refusedBeforeConnecting() async throws {
        let silent = try await SilentServer.start()
        let client = SMTPClient(settings: Self.settings(port: silent.port), logger: LogRecorder().logger())
        let injected = MailMessage(from: MailAddress("a@flint.example"), to: [MailAddress("b@example.com")], subject: "s\r\nBcc: c@d", text: "t")
        await #expect(throws: SMTPError.self) { _ = try await client.send(injected) }
        var settings = Self.settings(port: silent.port)
        settings.maxAttempts = 0
        let error = await Self.failure(settings)
        guard case .invalidSettings = error else {
            Issue.record("expected invalid settings, got \(String(describing: error))")
            return
        }
        #expect(silent.counts.accepted == 0)
        try await silent.stop()
    }
}
