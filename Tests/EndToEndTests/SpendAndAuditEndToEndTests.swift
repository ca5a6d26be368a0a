import AsyncHTTPClient
import FlintAuthTestSupport
import FlintTesting
import Foundation
import NIOCore
import NIOHTTP1
import Testing

@Suite("End to end: SMS spend limits and the audit log", .serialized)
struct SpendAndAuditEndToEndTests {
    @Test(
        "a YAML --config's flint.smsLimits holds in production mode: 3 texts an hour from one address, the 4th refused; audit list shows the lockout")
    func perAddressFromConfigFile() async throws {
        let provider = try ScriptedHTTPServer(script: Array(repeating: .status(200, "{}"), count: 10))
        defer { provider.stop() }
        let client = HTTPClient.shared
        let data = temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let file = data + ".yaml"
        try """
        signIn: {phoneNumber: {enabled: true, appVerification: OFF}}
        flint:
          smsLimits:
            perIPPerHour: 3
        """.write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let server = try await FlintProcess(
            dataDirectory: data,
            extraArguments: [
                "--no-dev", "--master-key-file", try newMasterKeyFile(), "--admin-token", "admin-secret-123", "--config", file,
                "--sms", "http://127.0.0.1:\(provider.port)/sms", "--sms-webhook-secret", "0123456789abcdef-e2e",
            ])
        let v1 = server.base + "/identitytoolkit.googleapis.com/v1"
        var statuses: [Int] = []
        for n in 0..<5 {
            let (status, _) = try await postJSON(client, "\(v1)/accounts:sendVerificationCode?key=k", ["phoneNumber": "+1650555\(3000 + n)"])
            statuses.append(status)
        }
        #expect(statuses == [200, 200, 200, 400, 400])
        #expect(provider.requestBodies.count == 3, "texts the provider received")

        var request = HTTPClientRequest(url: server.base + "/identitytoolkit.googleapis.com/admin/v2/projects/demo-flint/config")
        request.headers.add(name: "authorization", value: "Bearer admin-secret-123")
        let config = try await client.execute(request, timeout: .seconds(10))
        let body = String(buffer: try await config.body.collect(upTo: 1 << 20))
        #expect(body.contains(#""perIPPerHour":3"#) && body.contains(#""dailyBudget":3000"#), "\(body)")
        #expect(await server.stop() == 0)

        let (status, listed) = try await runFlint(["audit", "list", "--data", data, "--kind", "LOCKOUT", "--json"])
        #expect(status == 0, "\(listed)")
        let page = try #require(try JSONSerialization.jsonObject(with: Data(listed.utf8)) as? [String: Any])
        let events = try #require(page["auditEvents"] as? [[String: Any]])
        #expect(events.count == 1)
        #expect((events.first?["detail"] as? [String: Any])?["limit"] as? String == "sms-ip:h:127.0.0.1")
        #expect(events.first?["ip"] as? String == "127.0.0.1")
    }

    @Test("flint config set is audited as the command line with its mask; flint audit list filters, pages and prints lines")
    func configSetAndList() async throws {
        let data = temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let (setStatus, setOutput) = try await runFlint(["config", "set", "flint.smsLimits.dailyBudget", "50", "--data", data])
        #expect(setStatus == 0, "\(setOutput)")
        #expect(setOutput.contains("dailyBudget") && setOutput.contains("perCountryPerHour"), "the limits in force are shown")
        _ = try await runFlint(["config", "set", "authorizedDomains", #"["localhost","example.com"]"#, "--data", data])

        let (status, lines) = try await runFlint(["audit", "list", "--data", data, "--kind", "CONFIG_CHANGED"])
        #expect(status == 0, "\(lines)")
        let printed = lines.split(separator: "\n")
        #expect(printed.count == 2)
        #expect(printed.first?.contains("CONFIG_CHANGED") == true && printed.first?.contains("actor=cli") == true)
        #expect(printed.first?.contains(#"{"updateMask":["authorizedDomains"]}"#) == true, "newest first: \(lines)")

        let (_, firstPage) = try await runFlint(["audit", "list", "--data", data, "--page-size", "1"])
        let token = try #require(firstPage.split(separator: "\n").last.flatMap { $0.components(separatedBy: "--page-token ").last })
        let (_, secondPage) = try await runFlint(["audit", "list", "--data", data, "--page-size", "1", "--page-token", token])
        #expect(secondPage.contains("flint.smsLimits.dailyBudget"), "\(secondPage)")

        let (badStatus, bad) = try await runFlint(["audit", "list", "--data", data, "--kind", "NOPE"])
        #expect(badStatus != 0)
        #expect(bad.contains("kind must be one of"))
    }
}
