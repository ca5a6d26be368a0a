import AsyncHTTPClient
import FlintTesting
import Foundation
import NIOCore
import NIOHTTP1
import Testing

/// The SMTP server `./scripts/test` started (scripts/smtp-server), if any.
let smtpEnvironment = ProcessInfo.processInfo.environment.filter { $0.key.hasPrefix("FLINT_TEST_SMTP_") }

@Suite("email links through a real SMTP server", .serialized, .enabled(if: smtpEnvironment["FLINT_TEST_SMTP_HOST"] != nil))
struct EmailEndToEndTests {
    /// `smtp://user:pass@host:port?ca=...` for the test server's STARTTLS port.
    static var smtpURL: String {
        let env = smtpEnvironment
        let user = env["FLINT_TEST_SMTP_USER"] ?? ""
        let password = env["FLINT_TEST_SMTP_PASSWORD"] ?? ""
        return
            "smtp://\(user):\(password)@\(env["FLINT_TEST_SMTP_HOST"] ?? ""):\(env["FLINT_TEST_SMTP_STARTTLS_PORT"] ?? "")?ca=\(env["FLINT_TEST_SMTP_CA"] ?? "")"
    }

    @Test("send link → the SMTP server receives it → the link's page leaves the code unused → sign in once")
    func linkThroughSMTP() async throws {
        let client = HTTPClient.shared
        let data = temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let flint = try await FlintProcess(
            dataDirectory: data, extraArguments: ["--smtp", Self.smtpURL, "--email-from", "login@flint.test", "--app-name", "Flint E2E"])
        defer { flint.terminate() }
        let v1 = flint.base + "/identitytoolkit.googleapis.com/v1"
        let email = "e2e-\(UUID().uuidString.prefix(8).lowercased())@example.com"

        let (sendStatus, _) = try await postJSON(
            client, "\(v1)/accounts:sendOobCode?key=e2e",
            ["requestType": "EMAIL_SIGNIN", "email": email, "continueUrl": "http://localhost/done", "canHandleCodeInApp": "true"],
            headers: [("X-Firebase-Locale", "de")])
        #expect(sendStatus == 200)

        let message = try await Self.waitForMessage(to: email)
        #expect(message.contains("From: Flint E2E <login@flint.test>") || message.contains("login@flint.test"))
        #expect(message.contains("multipart/alternative"))
        #expect(message.contains("Subject: =?UTF-8?") || message.contains("Subject: "))
        let text = Self.decodeQuotedPrintable(message)
        let link = try #require(Self.firstLink(in: text, base: flint.base), "no action link in the message")
        let query = Dictionary(uniqueKeysWithValues: (URLComponents(string: link)?.queryItems ?? []).map { ($0.name, $0.value ?? "") })
        let code = try #require(query["oobCode"])
        #expect(query["lang"] == "de")

        // A mail scanner opens the link: the code stays unused.
        for _ in 0..<2 {
            let page = try await client.execute(HTTPClientRequest(url: link), timeout: .seconds(10))
            #expect(page.status == .ok)
            _ = try await page.body.collect(upTo: 1 << 20)
        }
        let (signStatus, signed) = try await postJSON(client, "\(v1)/accounts:signInWithEmailLink?key=e2e", ["email": email, "oobCode": code])
        #expect(signStatus == 200)
        #expect(signed["isNewUser"] as? Bool == true)
        let (againStatus, again) = try await postJSON(client, "\(v1)/accounts:signInWithEmailLink?key=e2e", ["email": email, "oobCode": code])
        #expect(againStatus == 400)
        #expect((again["error"] as? [String: Any])?["message"] as? String == "INVALID_OOB_CODE")

        let record = try await Self.outboxRecord(client, flint, to: email) { $0["status"] as? String == "sent" }
        #expect((record["statusDetail"] as? String)?.hasPrefix("250") == true)
        #expect(!flint.log.contains(code), "the code never appears in the log")
        #expect(!flint.log.contains(smtpEnvironment["FLINT_TEST_SMTP_PASSWORD"] ?? "\u{0}"), "the SMTP password is not logged")
    }

    @Test("a 5xx refusal marks the outbox record failed, with the server's reply, and is logged")
    func permanentFailure() async throws {
        let client = HTTPClient.shared
        let data = temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let flint = try await FlintProcess(dataDirectory: data, extraArguments: ["--smtp", Self.smtpURL])
        defer { flint.terminate() }
        let (status, _) = try await postJSON(
            client, flint.base + "/identitytoolkit.googleapis.com/v1/accounts:sendOobCode?key=e2e",
            ["requestType": "EMAIL_SIGNIN", "email": "reject@example.com", "continueUrl": "http://localhost/", "canHandleCodeInApp": "true"])
        #expect(status == 200)
        let record = try await Self.outboxRecord(client, flint, to: "reject@example.com") { $0["status"] as? String == "failed" }
        #expect((record["statusDetail"] as? String)?.contains("550") == true)
        #expect(flint.log.contains("email refused for good"))
    }

    // MARK: Helpers

    /// The message to `email` in the SMTP server's maildir (another process's files, read every 200 ms).
    static func waitForMessage(to email: String) async throws -> String {
        let dir = try #require(smtpEnvironment["FLINT_TEST_SMTP_MAILDIR"])
        for _ in 0..<100 {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? [] {
                if let text = try? String(contentsOfFile: dir + "/" + name, encoding: .utf8), text.contains(email) { return text }
            }
            try await Task.sleep(for: .milliseconds(200))
        }
        throw FlintProcessError(message: "no message to \(email) arrived in \(dir)")
    }

    /// The flint child's outbox record to `email` once it satisfies `done` (another process's state, read every 200 ms).
    static func outboxRecord(
        _ client: HTTPClient, _ flint: FlintProcess, to email: String, until done: ([String: Any]) -> Bool
    ) async throws -> [String: Any] {
        var last: [String: Any] = [:]
        for _ in 0..<100 {
            let (_, outbox) = try await getJSON(client, flint.base + "/emulator/v1/projects/demo-flint/outbox")
            if let record = (outbox["messages"] as? [[String: Any]])?.last(where: { $0["to"] as? String == email }) {
                last = record
                if done(record) { return record }
            }
            try await Task.sleep(for: .milliseconds(200))
        }
        throw FlintProcessError(message: "outbox record never reached the expected state: \(last)")
    }

    /// Undoes quoted-printable soft breaks and escapes (enough to read links back).
    static func decodeQuotedPrintable(_ text: String) -> String {
        let bytes = Array(text.replacingOccurrences(of: "=\r\n", with: "").replacingOccurrences(of: "=\n", with: "").utf8)
        var out: [UInt8] = []
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "="), i + 2 < bytes.count,
                let value = UInt8(String(decoding: bytes[(i + 1)...(i + 2)], as: UTF8.self), radix: 16)
            {
                out.append(value)
                i += 3
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func firstLink(in text: String, base: String) -> String? {
        guard let start = text.range(of: base + "/__/auth/action?") else { return nil }
        let tail = text[start.lowerBound...]
        let end = tail.firstIndex { $0.isWhitespace || $0 == "\"" || $0 == "<" } ?? tail.endIndex
        return String(tail[..<end]).replacingOccurrences(of: "&amp;", with: "&")
    }
}
