import AsyncHTTPClient
import FlintTesting
import Foundation
import Testing

/// Runs `flint ARGS…` to completion: exit status, standard output and standard error apart (awaited off the
/// cooperative pool, `ChildProcess`).
func runFlintApart(_ arguments: [String]) async throws -> (status: Int32, out: String, err: String) {
    let outcome = try await ChildProcess.run(FlintProcess.binary, arguments, mergingError: false)
    return (outcome.status, outcome.output, outcome.error)
}

/// A JSON text as a Foundation object.
func parseJSON(_ text: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(text.utf8)) }

/// Firebase's published scrypt parameters and a hash of "correct horse battery staple" made with them by
/// scripts/hash-vectors.py (Python's hashlib.scrypt and `cryptography`).
enum FirebaseScrypt {
    static let key = "CzBVep/E6Q4zWH2ix+wRNluApcrvFDleg6jN8hc8YYar0PUaP2SJrtP4HUJnjLHW+yBFao+02f4jSG2St9wBJg=="
    static let flags = ["--hash-algo", "SCRYPT", "--hash-key", key, "--salt-separator", "Bw==", "--rounds", "8", "--mem-cost", "14"]
    static let salt = "TmFDbC0A/y1zYWx0"
    static let hash = "zHX0027Y+SOvv7k4so+9JhXWf9ItCcJS92tmWGkY1Zpoy8vE30zmQk6ouYBKd1buOLDW8CR3KnZsklz7Rt5ARw=="
    static let password = "correct horse battery staple"
}

@Suite("flint users import and export, end to end", .serialized)
struct UsersImportExportTests {
    /// Users exactly as `flint users export` writes them back (member order included), so a round trip is compared
    /// user by user.
    static let exported: [String] = [
        #"""
        {
          "localId": "full-user",
          "email": "ada@example.com",
          "emailVerified": true,
          "passwordHash": "\#(FirebaseScrypt.hash)",
          "salt": "\#(FirebaseScrypt.salt)",
          "displayName": "Ada \"Countess\" Lovelace",
          "photoUrl": "https://example.com/ada.png",
          "lastSignedInAt": "1600000000500",
          "createdAt": "1500000000000",
          "phoneNumber": "+16505553434",
          "disabled": false,
          "customAttributes": "{\"role\":\"admin\",\"level\":3}",
          "mfaInfo": [
            {
              "mfaEnrollmentId": "enrolment-1",
              "displayName": "work phone",
              "phoneInfo": "+16505550101",
              "enrolledAt": "2021-02-03T04:05:06.789Z"
            }
          ],
          "providerUserInfo": []
        }
        """#,
        #"""
        {
          "localId": "password-user",
          "email": "grace@example.com",
          "emailVerified": false,
          "passwordHash": "\#(FirebaseScrypt.hash)",
          "salt": "\#(FirebaseScrypt.salt)",
          "createdAt": "1500000000001",
          "disabled": true,
          "providerUserInfo": []
        }
        """#,
        #"""
        {
          "localId": "plain-user",
          "emailVerified": false,
          "createdAt": "1500000000002",
          "disabled": false,
          "providerUserInfo": [
            {
              "providerId": "apple.com",
              "rawId": "001234.abcd",
              "email": "x@privaterelay.appleid.com"
            },
            {
              "providerId": "google.com",
              "rawId": "1093",
              "email": "plain@gmail.com",
              "displayName": "Plain",
              "photoUrl": "https://example.com/p.png"
            }
          ]
        }
        """#,
    ]

    static let refused: [String] = [
        #"{"localId": "bad-email", "email": "not an email"}"#,
        #"{"localId": "google-user", "providerUserInfo": [{"providerId": "google.com", "email": "g@gmail.com"}]}"#,
        #"{"localId": "broken", "email": }"#,
    ]

    @Test("a JSON export imports (hashes and all), refused users are named with their line, and exports back unchanged")
    func jsonRoundTrip() async throws {
        let dir = temporaryDataDirectory()
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let data = dir + "/data"
        let input = dir + "/in.json"
        let users = [Self.exported[0], Self.refused[0], Self.exported[1], Self.refused[1], Self.refused[2], Self.exported[2]]
        try ("{\"users\": [\n" + users.joined(separator: ",\n") + "]}").write(toFile: input, atomically: true, encoding: .utf8)

        let first = try await runFlintApart(["users", "import", input, "--data", data, "--json"] + FirebaseScrypt.flags)
        #expect(first.status == 0, "\(first.err)")
        let summary = try #require(try parseJSON(first.out) as? [String: Any], "\(first.out)")
        #expect(summary["read"] as? Int == 6)
        #expect(summary["imported"] as? Int == 3)
        #expect(summary["failed"] as? Int == 3)
        let failures = try #require(summary["failures"] as? [[String: Any]])
        #expect(failures.map { $0["index"] as? Int } == [1, 3, 4])
        #expect(failures.first?["message"] as? String == "email is invalid")
        #expect(failures.first?["localId"] as? String == "bad-email")
        // Line 1 opens the file; each user starts on the line after the previous one ends.
        let lines = users.map { $0.split(separator: "\n").count }
        let starts = lines.indices.map { i in 2 + lines[..<i].reduce(0, +) }
        #expect(failures.map { $0["line"] as? Int } == [starts[1], starts[3], starts[4]])
        #expect(
            first.err.contains("user 3 (line \(starts[3]), localId \"google-user\"): federatedId or (providerId & rawId) is required"), "\(first.err)"
        )
        #expect(first.err.contains("user 4 (line \(starts[4])): not valid JSON"))

        let again = try await runFlintApart(["users", "import", input, "--data", data, "--resume", "--json"] + FirebaseScrypt.flags)
        let resumed = try #require(try parseJSON(again.out) as? [String: Any], "\(again.out) \(again.err)")
        #expect(resumed["imported"] as? Int == 0)
        #expect(resumed["skipped"] as? Int == 3)

        let output = dir + "/out.json"
        let export = try await runFlintApart(["users", "export", output, "--data", data, "--json"])
        #expect(export.status == 0, "\(export.err)")
        let text = try String(contentsOfFile: output, encoding: .utf8)
        #expect(text == "{\"users\": [\n" + Self.exported.joined(separator: ",\n") + "]}")
        let exportSummary = try #require(try parseJSON(export.out) as? [String: Any])
        let hashes = try #require(exportSummary["passwordHashes"] as? [[String: Any]])
        #expect(hashes.count == 1)
        #expect(hashes.first?["flags"] as? String == FirebaseScrypt.flags.joined(separator: " "))
        #expect(hashes.first?["users"] as? Int == 2)
        let attributes = try FileManager.default.attributesOfItem(atPath: output)
        #expect((attributes[.posixPermissions] as? Int).map { $0 & 0o077 } == 0)
    }

    @Test("an imported Firebase scrypt password signs in against flint serve and is re-hashed as Flint's scrypt")
    func importedPasswordSignsIn() async throws {
        let dir = temporaryDataDirectory()
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let data = dir + "/data"
        let input = dir + "/in.json"
        try ("{\"users\": [\n" + Self.exported[1].replacingOccurrences(of: "\"disabled\": true", with: "\"disabled\": false") + "]}")
            .write(toFile: input, atomically: true, encoding: .utf8)
        let imported = try await runFlintApart(["users", "import", input, "--data", data] + FirebaseScrypt.flags)
        #expect(imported.status == 0, "\(imported.err)")

        let client = HTTPClient.shared
        let server = try await FlintProcess(dataDirectory: data)
        let v1 = server.base + "/identitytoolkit.googleapis.com/v1"
        let (wrong, _) = try await postJSON(client, "\(v1)/accounts:signInWithPassword?key=k", ["email": "grace@example.com", "password": "nope"])
        #expect(wrong == 400)
        let (status, signedIn) = try await postJSON(
            client, "\(v1)/accounts:signInWithPassword?key=k", ["email": "grace@example.com", "password": FirebaseScrypt.password])
        #expect(status == 200, "\(signedIn)")
        #expect(signedIn["localId"] as? String == "password-user")
        await server.stop()

        let export = try await runFlintApart(["users", "export", dir + "/out.csv", "--data", data, "--json"])
        let summary = try #require(try parseJSON(export.out) as? [String: Any], "\(export.out) \(export.err)")
        let flags = (summary["passwordHashes"] as? [[String: Any]])?.first?["flags"] as? String
        #expect(flags?.hasPrefix("--hash-algo STANDARD_SCRYPT --mem-cost 16384 --block-size 8 --parallelization 1 --dk-len 32") == true)
    }

    @Test("a CSV export imports and exports back byte for byte")
    func csvRoundTrip() async throws {
        let dir = temporaryDataDirectory()
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let data = dir + "/data"
        let input = dir + "/in.csv"
        /// A record of firebase-tools' 52 columns and trailing comma.
        func row(_ values: [Int: String]) -> String { (0..<52).map { values[$0] ?? "" }.joined(separator: ",") + "," }
        let rows = [
            row([
                0: "csv-1", 1: "ada@example.com", 2: "true", 3: FirebaseScrypt.hash, 4: FirebaseScrypt.salt, 5: "\"Ada, Countess\"",
                6: "https://example.com/a.png", 23: "1500000000000", 24: "1600000000000", 25: "+16505553434", 26: "false",
                27: "\"{\"\"role\"\":\"\"admin\"\"}\"",
            ]),
            row([0: "csv-2", 2: "false", 23: "1500000000001", 26: "true"]),
            // Federated providers only: Google's and GitHub's columns, Apple's after the claims.
            row([
                0: "csv-3", 2: "false", 7: "1093", 8: "g@gmail.com", 9: "\"Grace, H\"", 10: "https://example.com/g.png", 19: "gh-7",
                23: "1500000000002", 26: "false", 28: "001.apple",
            ]),
        ]
        let text = rows.joined(separator: "\n") + "\n"
        try text.write(toFile: input, atomically: true, encoding: .utf8)
        let imported = try await runFlintApart(["users", "import", input, "--data", data, "--json"] + FirebaseScrypt.flags)
        #expect(imported.status == 0, "\(imported.err)")
        #expect((try parseJSON(imported.out) as? [String: Any])?["imported"] as? Int == 3, "\(imported.out) \(imported.err)")
        let output = dir + "/out.csv"
        let export = try await runFlintApart(["users", "export", output, "--data", data])
        #expect(export.status == 0, "\(export.err)")
        #expect(try String(contentsOfFile: output, encoding: .utf8) == text)
    }

    @Test("--hash-algo BCRYPT refuses a user whose bcrypt cost is above 14, naming it, and imports the others")
    func bcryptCostBound() async throws {
        let dir = temporaryDataDirectory()
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let input = dir + "/in.json"
        // bcrypt of "correct horse battery staple" at cost 4 (scripts/hash-vectors.py), and the same string at cost 31.
        let cost4 = "$2b$04$abcdefghijklmnopqrstuu7EJV7kdjBBQxyb0HjTh9KS7.Lah/6CG"
        let cost31 = cost4.replacingOccurrences(of: "$04$", with: "$31$")
        let users = [("cheap", cost4), ("costly", cost31)].map { id, hash in
            "{\"localId\": \"\(id)\", \"passwordHash\": \"\(Data(hash.utf8).base64EncodedString())\"}"
        }
        try ("{\"users\": [\n" + users.joined(separator: ",\n") + "]}").write(toFile: input, atomically: true, encoding: .utf8)
        let result = try await runFlintApart(["users", "import", input, "--data", dir + "/data", "--json", "--hash-algo", "BCRYPT"])
        #expect(result.status == 0, "\(result.err)")
        let summary = try #require(try parseJSON(result.out) as? [String: Any], "\(result.out)")
        #expect(summary["imported"] as? Int == 1)
        #expect(summary["failed"] as? Int == 1)
        #expect(result.err.contains("user 1 (line 3, localId \"costly\"): bcrypt cost must be at most 14"), "\(result.err)")
    }

    @Test("a file whose structure breaks stops the import at its line, keeping the users before it")
    func brokenFile() async throws {
        let dir = temporaryDataDirectory()
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let input = dir + "/in.json"
        try "{\"users\": [\n{\"localId\": \"a\"},\n{\"localId\": \"b\"}\n{\"localId\": \"c\"}]}".write(
            toFile: input, atomically: true, encoding: .utf8)
        let result = try await runFlintApart(["users", "import", input, "--data", dir + "/data", "--json"])
        #expect(result.status != 0)
        #expect(result.err.contains("line 4: expected , or ] after a user"), "\(result.err)")
        #expect((try parseJSON(result.out) as? [String: Any])?["imported"] as? Int == 2, "\(result.out)")
    }
}
