import Foundation
import Testing

@Suite("flint users import and export: passkeys")
struct PasskeyImportExportTests {
    /// A passkey as Flint's export writes it: Identity Platform's `name` and `credentialId`, then Flint's key material
    /// (a P-256 COSE key, base64url).
    static var passkey: [String: Any] {
        [
            "name": "Office key", "credentialId": "q83vEjRWeJA",
            "publicKey": "pQECAyYgASFYIJxHrSMS7yhmPZLiMTC53by5isJd-S1Fmxn3mQ_2rnojIlggpw4ZgRx5s2qY-v-gQOEymS43FYGqRIuIInft1Z8y0t8",
            "rpId": "example.com", "signCount": "4", "transports": ["internal", "hybrid"], "createdAt": "1700000000000",
        ]
    }

    @Test("a user's passkeys import with their key material and export back the same; one without its key is refused; update withdraws one")
    func roundTrip() async throws {
        let dir = temporaryDataDirectory()
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let users: [[String: Any]] = [
            ["localId": "pk-user", "email": "pk@example.com", "emailVerified": true, "passkeyInfo": [Self.passkey]],
            ["localId": "firebase-passkey", "passkeyInfo": [["name": "From Firebase", "credentialId": "AQID"]]],
        ]
        let input = dir + "/in.json"
        try JSONSerialization.data(withJSONObject: ["users": users], options: [.prettyPrinted]).write(to: URL(fileURLWithPath: input))

        let imported = try await runFlintApart(["users", "import", input, "--data", dir + "/data", "--json"])
        #expect(imported.status == 0, "\(imported.err)")
        let summary = try #require(try parseJSON(imported.out) as? [String: Any], "\(imported.out)")
        #expect(summary["imported"] as? Int == 1)
        let failures = try #require(summary["failures"] as? [[String: Any]])
        #expect(failures.map { $0["localId"] as? String } == ["firebase-passkey"])
        #expect((failures.first?["message"] as? String)?.hasPrefix("passkeyInfo needs publicKey and rpId") == true)

        let output = dir + "/out.json"
        let export = try await runFlintApart(["users", "export", output, "--data", dir + "/data", "--json"])
        #expect(export.status == 0, "\(export.err)")
        let exported = try #require(try parseJSON(try String(contentsOfFile: output, encoding: .utf8)) as? [String: Any])
        let user = try #require((exported["users"] as? [[String: Any]])?.first)
        #expect(user["localId"] as? String == "pk-user")
        let entries = try #require(user["passkeyInfo"] as? [[String: Any]])
        #expect(entries.count == 1)
        #expect(NSDictionary(dictionary: entries[0]).isEqual(to: Self.passkey), "\(entries)")

        let withdrawn = try await runFlintApart(["users", "update", "pk-user", "--delete-passkey", "q83vEjRWeJA", "--data", dir + "/data"])
        #expect(withdrawn.status == 0, "\(withdrawn.err)")
        let after = try await runFlintApart(["users", "export", output, "--data", dir + "/data", "--json"])
        #expect(after.status == 0, "\(after.err)")
        let reexported = try #require(try parseJSON(try String(contentsOfFile: output, encoding: .utf8)) as? [String: Any])
        #expect((reexported["users"] as? [[String: Any]])?.first?["passkeyInfo"] == nil, "flint users update --delete-passkey withdrew it")
    }
}
