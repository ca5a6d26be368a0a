import AsyncHTTPClient
import FlintTesting
import Foundation
import NIOCore
import NIOHTTP1
import Testing

/// Runs `flint ARGS…` to completion and returns its exit status and what it printed (standard output and error),
/// awaited off the cooperative pool (`ChildProcess`): a command that talks to a server in this process must not
/// starve it.
func runFlint(_ arguments: [String], environment: [String: String] = [:]) async throws -> (Int32, String) {
    let outcome = try await ChildProcess.run(FlintProcess.binary, arguments, environment: environment)
    return (outcome.status, outcome.output)
}

@Suite("flint commands, end to end", .serialized)
struct CommandLineTests {
    @Test("a YAML --config file sets fictional numbers that sign in with their fixed code and leave no SMS")
    func configFile() async throws {
        let client = HTTPClient.shared
        let data = temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let file = data + ".yaml"
        try """
        signIn:
          phoneNumber:
            enabled: true
            testPhoneNumbers:
              "+1 650-555-1234": "654321"
        authorizedDomains: [localhost, example.com]
        """.write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let server = try await FlintProcess(dataDirectory: data, extraArguments: ["--config", file])
        defer { server.terminate() }
        let v1 = server.base + "/identitytoolkit.googleapis.com/v1"
        let (_, sent) = try await postJSON(client, "\(v1)/accounts:sendVerificationCode?key=k", ["phoneNumber": "+16505551234"])
        let sessionInfo = try #require(sent["sessionInfo"] as? String)
        let (status, signed) = try await postJSON(
            client, "\(v1)/accounts:signInWithPhoneNumber?key=k", ["sessionInfo": sessionInfo, "code": "654321"])
        #expect(status == 200)
        #expect(signed["phoneNumber"] as? String == "+16505551234")
        let (_, outbox) = try await getJSON(client, server.base + "/emulator/v1/projects/demo-flint/outbox")
        #expect((outbox["messages"] as? [Any])?.isEmpty == true)
        let (_, projects) = try await getJSON(client, "\(v1)/projects?key=k")
        #expect(projects["authorizedDomains"] as? [String] == ["localhost", "example.com"])
    }

    @Test("a bad --config file stops the server with a clear message")
    func badConfigFile() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("flint-bad-\(UUID().uuidString).yaml").path
        try "signIn: {phoneNumber: {testPhoneNumbers: {\"+1650\": \"12\"}}}".write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let data = file + ".data"
        defer { try? FileManager.default.removeItem(atPath: data) }
        let (status, output) = try await runFlint(["serve", "--port", "0", "--data", data, "--config", file])
        #expect(status != 0)
        #expect(output.contains("test phone number"))
    }

    @Test(
        "the PostgreSQL options refuse values past their bounds before anything starts",
        arguments: [
            ("--database-keepalive", "-1", "--database-keepalive must be between 0 and 86400"),
            ("--database-keepalive", "86401", "--database-keepalive must be between 0 and 86400"),
            ("--database-pool", "0", "--database-pool must be between 1 and 1000"),
            ("--database-prepared", "10001", "--database-prepared must be between 0 and 10000"),
        ])
    func databaseOptionBounds(_ c: (String, String, String)) async throws {
        let data = temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let (status, output) = try await runFlint(["serve", "--port", "0", "--data", data, c.0 + "=" + c.1])
        #expect(status != 0)
        #expect(output.contains(c.2), "\(output)")
    }

    @Test("flint config set and show edit the stored config, and refuse invalid values")
    func configSetShow() async throws {
        let data = temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let (setStatus, setOutput) = try await runFlint([
            "config", "set", "--data", data, "signIn.phoneNumber.testPhoneNumbers", #"{"+1 650-555-9999":"111111"}"#,
        ])
        #expect(setStatus == 0, "\(setOutput)")
        let (showStatus, shown) = try await runFlint(["config", "show", "--data", data])
        #expect(showStatus == 0)
        #expect(shown.contains(#""+16505559999" : "111111""#))
        #expect(shown.contains("projects/demo-flint/config"))
        let (badStatus, badOutput) = try await runFlint(["config", "set", "--data", data, "signIn.phoneNumber.enabled", "maybe"])
        #expect(badStatus != 0)
        #expect(badOutput.contains("INVALID_CONFIG"))
    }

    @Test(
        "flint keys rotate publishes a scheduled key at once while the old one signs; flint keys revoke unpublishes the leaked key and a new key signs at once"
    )
    func rotateAndRevoke() async throws {
        let client = HTTPClient.shared
        let data = temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let server = try await FlintProcess(dataDirectory: data, extraArguments: ["--reload-interval", "1"])
        defer { server.terminate() }
        let jwksURL = server.base + "/.well-known/jwks.json"
        func published() async throws -> [String] {
            try #require(try await getJSON(client, jwksURL).1["keys"] as? [[String: String]]).compactMap { $0["kid"] }
        }
        /// The kid of a new phone sign-in's ID token.
        func signInKID(_ phone: String) async throws -> String {
            let v1 = server.base + "/identitytoolkit.googleapis.com/v1"
            _ = try await postJSON(client, "\(v1)/accounts:sendVerificationCode?key=k", ["phoneNumber": phone])
            let (_, pending) = try await getJSON(client, server.base + "/emulator/v1/projects/demo-flint/verificationCodes")
            let entry = try #require((pending["verificationCodes"] as? [[String: String]])?.last { $0["phoneNumber"] == phone })
            let (_, signed) = try await postJSON(
                client, "\(v1)/accounts:signInWithPhoneNumber?key=k", ["sessionInfo": entry["sessionInfo"]!, "code": entry["code"]!])
            let idToken = try #require(signed["idToken"] as? String)
            let header = try #require(Data(base64Encoded: base64(idToken.split(separator: ".")[0])))
            let json = try #require(try JSONSerialization.jsonObject(with: header) as? [String: Any])
            return try #require(json["kid"] as? String)
        }
        let before = try await published()
        #expect(before.count == 1)
        let (status, output) = try await runFlint(["keys", "rotate", "--data", data])
        #expect(status == 0, "\(output)")
        #expect(output.contains("signs new tokens from"), "\(output)")
        // The server is another process, which hears of the CLI's change by its announcement: polled.
        var after: [String] = []
        for _ in 0..<50 {
            after = try await published()
            if after.count == 2 { break }
            try await Task.sleep(for: .milliseconds(200))
        }
        #expect(after.count == 2)
        let scheduled = try #require(after.first { $0 != before[0] })
        let (_, x509) = try await getJSON(client, server.base + "/www.googleapis.com/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com")
        #expect(x509.count == 2)
        #expect(try await signInKID("+442071838750") == before[0], "the old key signs until the scheduled one starts")

        let (revokeStatus, revoked) = try await runFlint(["keys", "revoke", before[0], "--data", data])
        #expect(revokeStatus == 0, "\(revoked)")
        // Polled likewise: the server process hears of the revocation by its announcement.
        var keys: [String] = []
        for _ in 0..<50 {
            keys = try await published()
            if !keys.contains(before[0]) { break }
            try await Task.sleep(for: .milliseconds(200))
        }
        #expect(!keys.contains(before[0]) && keys.contains(scheduled) && keys.count == 2)
        let emergency = try #require(keys.first { $0 != scheduled })
        #expect(revoked.contains(emergency), "\(revoked)")
        #expect(try await signInKID("+442071838751") == emergency)
        let (again, _) = try await runFlint(["keys", "revoke", before[0], "--data", data])
        #expect(again != 0, "a revoked key is not revoked twice")
    }

    @Test("flint migrate and flint doctor: a fresh database is migrated, and doctor says what is missing until a node has started")
    func migrateAndDoctor() async throws {
        let data = temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let (migrateStatus, migrated) = try await runFlint(["migrate", "--data", data])
        #expect(migrateStatus == 0)
        #expect(migrated.contains("schema version"))
        let (before, beforeOutput) = try await runFlint(["doctor", "--data", data])
        #expect(before != 0)
        #expect(beforeOutput.contains("no signing key yet"))
        let server = try await FlintProcess(dataDirectory: data)
        await server.stop()
        let (after, afterOutput) = try await runFlint(["doctor", "--data", data])
        #expect(after == 0, "\(afterOutput)")
        #expect(afterOutput.contains("all checks passed"))
    }

    @Test("flint users generate adds synthetic phone users once")
    func generateUsers() async throws {
        let data = temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let (status, output) = try await runFlint(["users", "generate", "--data", data, "--count", "250"])
        #expect(status == 0, "\(output)")
        #expect(output.contains("added 250 users; 250 in all"))
        let (_, again) = try await runFlint(["users", "generate", "--data", data, "--count", "300"])
        #expect(again.contains("added 50 users; 300 in all"), "existing numbers are skipped")
        // Past +1 415 999 9999 the numbers go on in the next area code (ten million users need more than one).
        let (_, past) = try await runFlint(["users", "generate", "--data", data, "--first", "9999998", "--count", "4"])
        #expect(past.contains("added 4 users; 304 in all"), "\(past)")
        let (_, found) = try await runFlint(["users", "get", "--data", data, "--phone", "+16282000001"])
        #expect(found.contains("+16282000001"), "\(found)")
    }
}

/// Standard base64 from base64url, padded.
func base64(_ s: Substring) -> String {
    var t = s.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    while t.count % 4 != 0 { t += "=" }
    return t
}
