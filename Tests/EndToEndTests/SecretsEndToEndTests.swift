import AsyncHTTPClient
import FlintTesting
import Foundation
import Testing

/// The master key that seals the store's secrets, through the real binary: made, required, refused when wrong,
/// changed with `flint keys rewrap`.
@Suite("secrets at rest, end to end", .serialized)
struct SecretsEndToEndTests {
    @Test("dev mode makes DATA/master.key (0600); the database file holds no private key; doctor says the secrets are sealed")
    func devModeKeyFile() async throws {
        let data = temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let node = try await FlintProcess(dataDirectory: data)
        await node.stop()
        let attributes = try FileManager.default.attributesOfItem(atPath: data + "/master.key")
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let database = [data + "/flint.sqlite", data + "/flint.sqlite-wal"].compactMap { FileManager.default.contents(atPath: $0) }
        #expect(!database.isEmpty && database.allSatisfy { $0.range(of: Data("PRIVATE KEY".utf8)) == nil })
        let (status, doctor) = try await runFlint(["doctor", "--data", data])
        #expect(status == 0, "\(doctor)")
        #expect(doctor.contains("encrypted at rest"))
    }

    @Test("a provider's client secret is sealed in the database; `flint config show` opens it with DATA/master.key, and shows it sealed without")
    func providerSecretSealed() async throws {
        let data = temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let secret = "corp-client-secret-\(UUID().uuidString.prefix(8))"
        let node = try await FlintProcess(dataDirectory: data)
        let (created, answer) = try await postJSON(
            HTTPClient.shared, node.base + "/identitytoolkit.googleapis.com/v2/projects/demo-flint/oauthIdpConfigs?oauthIdpConfigId=oidc.corp",
            ["clientId": "corp", "clientSecret": secret, "issuer": "https://issuer.example.com"], headers: [("Authorization", "Bearer owner")])
        #expect(created == 200 && answer["clientSecret"] as? String == secret, "\(answer)")
        await node.stop()
        let database = [data + "/flint.sqlite", data + "/flint.sqlite-wal"].compactMap { FileManager.default.contents(atPath: $0) }
        #expect(!database.isEmpty && database.allSatisfy { $0.range(of: Data(secret.utf8)) == nil })
        let (status, shown) = try await runFlint(["config", "show", "--data", data])
        #expect(status == 0 && shown.contains(secret), "\(shown)")
        try FileManager.default.moveItem(atPath: data + "/master.key", toPath: data + "/master.key.away")
        let (keyless, sealed) = try await runFlint(["config", "show", "--data", data])
        #expect(keyless == 0 && !sealed.contains(secret) && sealed.contains("sealed:v1:"), "\(sealed)")
        try FileManager.default.moveItem(atPath: data + "/master.key.away", toPath: data + "/master.key")
        let (doctorStatus, doctor) = try await runFlint(["doctor", "--data", data])
        #expect(doctorStatus == 0 && doctor.contains("3 sealed with master key"), "\(doctor)")
    }

    @Test("rewrap of a dev store replaces DATA/master.key with the new key, and the next dev start uses it")
    func devRewrapReplacesTheKeyFile() async throws {
        let client = HTTPClient.shared
        let data = temporaryDataDirectory()
        let newKey = try newMasterKeyFile()
        defer { for path in [data, newKey] { try? FileManager.default.removeItem(atPath: path) } }
        let first = try await FlintProcess(dataDirectory: data)
        let (_, signed) = try await postJSON(
            client, first.base + "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=k",
            ["email": "dev@example.com", "password": "correct horse"])
        let refreshToken = try #require(signed["refreshToken"] as? String)
        await first.stop()
        let (status, said) = try await runFlint(["keys", "rewrap", "--new-master-key-file", newKey, "--data", data])
        #expect(status == 0, "\(said)")
        #expect(try String(contentsOfFile: data + "/master.key", encoding: .utf8) == String(contentsOfFile: newKey, encoding: .utf8))
        let attributes = try FileManager.default.attributesOfItem(atPath: data + "/master.key")
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let second = try await FlintProcess(dataDirectory: data)
        defer { second.terminate() }
        let (refreshed, _) = try await postJSON(
            client, second.base + "/securetoken.googleapis.com/v1/token?key=k", ["grant_type": "refresh_token", "refresh_token": refreshToken])
        #expect(refreshed == 200)
    }

    @Test("production mode without a master key refuses to start and says how to make one")
    func productionNeedsAKey() async throws {
        let data = temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let (status, output) = try await runFlint(["serve", "--port", "0", "--data", data, "--no-dev", "--admin-token", "admin-secret-123"])
        #expect(status != 0)
        #expect(output.contains("flint keys master-key"), "\(output)")
        #expect(!FileManager.default.fileExists(atPath: data + "/master.key"), "production mode makes no key file")
    }

    @Test("a wrong key refuses to start; rewrap to a new key, then a restart with it publishes the same keys and old sessions refresh")
    func wrongKeyAndRewrap() async throws {
        try await rewrapScenario(arguments: [])
    }

    @Test("on PostgreSQL: rows hold sealed values only; wrong key refused; rewrap keeps keys and sessions", .enabled(if: postgresURL != nil))
    func postgres() async throws {
        let url = try await TwoNodeTests().freshDatabase(on: try #require(postgresURL))
        try await rewrapScenario(arguments: ["--database", url, "--dev"])
        let rows = try await ChildProcess.run(
            "/usr/bin/env",
            ["psql", url, "-qtAc", "SELECT value FROM flint_secrets WHERE name = 'master' UNION ALL SELECT private_key_pem FROM signing_keys"],
            mergingError: false
        ).output.split(separator: "\n")
        #expect(rows.count == 2 && rows.allSatisfy { $0.hasPrefix("sealed:v1:") }, "\(rows.map { $0.prefix(20) })")
    }

    private func rewrapScenario(arguments: [String]) async throws {
        let client = HTTPClient.shared
        let data = temporaryDataDirectory()
        let oldKey = try newMasterKeyFile()
        let newKey = try newMasterKeyFile()
        defer { for path in [data, oldKey, newKey] { try? FileManager.default.removeItem(atPath: path) } }
        let store = arguments.isEmpty ? ["--data", data] : Array(arguments.prefix(2))
        let first = try await FlintProcess(dataDirectory: data, extraArguments: arguments + ["--master-key-file", oldKey])
        let (_, jwks) = try await getJSON(client, first.base + "/.well-known/jwks.json")
        let (_, signed) = try await postJSON(
            client, first.base + "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=k",
            ["email": "rewrap@example.com", "password": "correct horse"])
        let refreshToken = try #require(signed["refreshToken"] as? String)
        await first.stop()

        let (wrong, refusal) = try await runFlint(["serve", "--port", "0", "--data", data, "--master-key-file", newKey] + arguments)
        #expect(wrong != 0)
        #expect(refusal.contains("wrong master key"), "\(refusal)")
        let (wrongRewrap, _) = try await runFlint(["keys", "rewrap", "--new-master-key-file", oldKey, "--master-key-file", newKey] + store)
        #expect(wrongRewrap != 0, "the current key must open the secrets")

        let (rewrapped, said) = try await runFlint(["keys", "rewrap", "--master-key-file", oldKey, "--new-master-key-file", newKey] + store)
        #expect(rewrapped == 0, "\(said)")
        let second = try await FlintProcess(dataDirectory: data, extraArguments: arguments + ["--master-key-file", newKey])
        defer { second.terminate() }
        let (_, jwksAfter) = try await getJSON(client, second.base + "/.well-known/jwks.json")
        #expect(NSDictionary(dictionary: jwksAfter) == NSDictionary(dictionary: jwks))
        let (status, _) = try await postJSON(
            client, second.base + "/securetoken.googleapis.com/v1/token?key=k", ["grant_type": "refresh_token", "refresh_token": refreshToken])
        #expect(status == 200, "a refresh token from before the rewrap refreshes")
        let (doctor, report) = try await runFlint(["doctor", "--master-key-file", newKey] + store)
        #expect(doctor == 0, "\(report)")
    }
}
