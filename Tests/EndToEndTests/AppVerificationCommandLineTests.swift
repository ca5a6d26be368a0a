import AsyncHTTPClient
import FlintTesting
import Foundation
import Testing

@Suite("flint serve: app-verification flags and config", .serialized)
struct AppVerificationCommandLineTests {
    @Test("the four APNs flags go together, and the key file must be a P-256 key")
    func apnsFlags() async throws {
        let data = temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let (partial, partialOutput) = try await runFlint(["serve", "--port", "0", "--data", data, "--apns-key-id", "ABC123DEFG"])
        #expect(partial != 0)
        #expect(partialOutput.contains("--apns-key-file, --apns-key-id, --apns-team-id and --apns-bundle-id go together"))
        let key = data + ".p8"
        try "not a key".write(toFile: key, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: key) }
        let (bad, badOutput) = try await runFlint([
            "serve", "--port", "0", "--data", data, "--apns-key-file", key, "--apns-key-id", "ABC123DEFG", "--apns-team-id", "TEAM123456",
            "--apns-bundle-id", "com.example.app",
        ])
        #expect(bad != 0)
        #expect(badOutput.contains("--apns-key-file: not a P-256 private key"))
    }

    @Test("a --config file sets appVerification: ENFORCE, and an unknown value stops the server")
    func configPolicy() async throws {
        let client = HTTPClient.shared
        let data = temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let file = data + ".yaml"
        try "signIn: {phoneNumber: {enabled: true, appVerification: ENFORCE}}".write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let server = try await FlintProcess(dataDirectory: data, extraArguments: ["--config", file])
        let v1 = server.base + "/identitytoolkit.googleapis.com/v1"
        let (status, answer) = try await postJSON(client, "\(v1)/accounts:sendVerificationCode?key=k", ["phoneNumber": "+16505553434"])
        await server.stop()
        #expect(status == 400)
        #expect(
            (answer["error"] as? [String: Any])?["message"] as? String
                == "MISSING_APP_CREDENTIAL : App verification is required: send iosReceipt and iosSecret (from verifyClient and its push) or a recaptchaToken."
        )

        try "signIn: {phoneNumber: {appVerification: SOMETIMES}}".write(toFile: file, atomically: true, encoding: .utf8)
        let (refused, output) = try await runFlint(["serve", "--port", "0", "--data", data + "-2", "--config", file])
        defer { try? FileManager.default.removeItem(atPath: data + "-2") }
        #expect(refused != 0)
        #expect(output.contains("signIn.phoneNumber.appVerification must be one of ENFORCE, OFF"))
    }
}
