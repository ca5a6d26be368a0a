import AsyncHTTPClient
import FlintTesting
import Foundation
import Testing

@Suite("flint admin: service accounts and admin credentials, end to end", .serialized)
struct AdminCommandLineTests {
    @Test("tokens create prints a secret once; a production server takes it, logs its name, honours its scope and its revocation")
    func adminTokens() async throws {
        let client = HTTPClient.shared
        let data = temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let (status, output) = try await runFlint(["admin", "tokens", "create", "ci-reader", "--scope", "read", "--data", data])
        #expect(status == 0, "\(output)")
        let secret = try #require(output.split(separator: "\n").last.map(String.init))
        #expect(secret.hasPrefix("flint_"))
        let (_, listed) = try await runFlint(["admin", "tokens", "list", "--json", "--data", data])
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(listed.utf8)) as? [[String: Any]])
        #expect(entries.count == 1 && entries[0]["name"] as? String == "ci-reader" && entries[0]["scope"] as? String == "read")
        #expect(!listed.contains(secret), "listings never show secrets")
        let (duplicate, _) = try await runFlint(["admin", "tokens", "create", "ci-reader", "--data", data])
        #expect(duplicate != 0, "a name is unique among unrevoked credentials")

        let server = try await FlintProcess(
            dataDirectory: data, extraArguments: ["--no-dev", "--master-key-file", try newMasterKeyFile(), "--admin-token", "bootstrap-secret"])
        defer { server.terminate() }
        let v1 = server.base + "/identitytoolkit.googleapis.com/v1/projects/demo-flint"
        let bearer = [("Authorization", "Bearer \(secret)")]
        let (read, _) = try await postJSON(client, "\(v1)/accounts:lookup", ["localId": "nobody"], headers: bearer)
        #expect(read == 200)
        let (write, refused) = try await postJSON(client, "\(v1)/accounts", ["localId": "u1"], headers: bearer)
        #expect(write == 403)
        #expect(
            (refused["error"] as? [String: Any])?["message"] as? String == "INSUFFICIENT_PERMISSION : The admin credential 'ci-reader' may only read."
        )

        let (revoked, _) = try await runFlint(["admin", "tokens", "revoke", "ci-reader", "--data", data])
        #expect(revoked == 0)
        let (after, _) = try await postJSON(client, "\(v1)/accounts:lookup", ["localId": "nobody"], headers: bearer)
        #expect(after == 401, "a revocation by the CLI holds at once on the running server")
        #expect(server.log.contains("credential=ci-reader"))
        #expect(!server.log.contains(secret))
    }

    @Test("tokens create --tenant and tokens tenants store a credential's tenant limit, list it and audit it; unknown tenants are refused")
    func adminTokenTenants() async throws {
        let data = temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let (made, tenantJSON) = try await runFlint(["tenants", "create", "Acme", "--data", data])
        #expect(made == 0, "\(tenantJSON)")
        let tenant = try #require(
            tenantJSON.range(of: #"tenants/acme-[a-z0-9]{5}"#, options: .regularExpression).map { String(tenantJSON[$0].dropFirst(8)) })
        let (created, said) = try await runFlint(["admin", "tokens", "create", "acme-sync", "--tenant", tenant, "--data", data])
        #expect(created == 0 && said.contains("tenants: \(tenant)"), "\(said)")
        let (unknown, refusal) = try await runFlint(["admin", "tokens", "create", "other", "--tenant", "nobody-abcde", "--data", data])
        #expect(unknown != 0 && refusal.contains("no tenant has the ID nobody-abcde"), "\(refusal)")

        let (changed, note) = try await runFlint(["admin", "tokens", "tenants", "acme-sync", tenant, "--project", "--data", data])
        #expect(changed == 0 && note.contains("project,\(tenant)"), "\(note)")
        let (_, listed) = try await runFlint(["admin", "tokens", "list", "--json", "--data", data])
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(listed.utf8)) as? [[String: Any]])
        #expect(entries.count == 1 && entries[0]["tenants"] as? [String] == [tenant] && entries[0]["project"] as? Bool == true, "\(listed)")
        let (missing, none) = try await runFlint(["admin", "tokens", "tenants", "nobody", "--all", "--data", data])
        #expect(missing != 0 && none.contains("no unrevoked admin credential named nobody"), "\(none)")
        #expect(try await runFlint(["admin", "tokens", "tenants", "acme-sync", "--all", "--data", data]).0 == 0)
        let (_, table) = try await runFlint(["admin", "tokens", "list", "--data", data])
        #expect(table.contains("TENANTS") && table.contains("all"), "\(table)")
        #expect(try await runFlint(["admin", "tokens", "revoke", "acme-sync", "--data", data]).0 == 0)

        let (_, audit) = try await runFlint(["audit", "list", "--kind", "ADMIN_CREDENTIAL_CHANGED", "--json", "--data", data])
        for step in ["created", "tenantsChanged", "revoked"] { #expect(audit.contains("\"\(step)\""), "\(step): \(audit)") }
    }

    @Test("service-accounts create writes a 0600 Google-format file, refuses to overwrite it, lists and revokes")
    func serviceAccounts() async throws {
        let data = temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let file = data + "-backend.json"
        defer { try? FileManager.default.removeItem(atPath: file) }
        let (status, output) = try await runFlint([
            "admin", "service-accounts", "create", "backend", "--project", "my-project", "--data", data, "--output", file,
        ])
        #expect(status == 0, "\(output)")
        let attributes = try FileManager.default.attributesOfItem(atPath: file)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let fields = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [String: String])
        #expect(fields["type"] == "service_account" && fields["client_email"] == "backend@my-project.iam.gserviceaccount.com")
        #expect(fields["project_id"] == "my-project" && fields["private_key"]?.hasPrefix("-----BEGIN PRIVATE KEY-----") == true)
        let (again, _) = try await runFlint(["admin", "service-accounts", "create", "other", "--data", data, "--output", file])
        #expect(again != 0, "an existing file is never overwritten")
        let (_, listed) = try await runFlint(["admin", "service-accounts", "list", "--json", "--data", data])
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(listed.utf8)) as? [[String: Any]])
        #expect(entries.map { $0["name"] as? String } == ["backend"])
        #expect(entries.first?["keyId"] as? String == fields["private_key_id"])
        #expect(!listed.contains("PRIVATE KEY"))
        let (revoked, _) = try await runFlint(["admin", "service-accounts", "revoke", "backend", "--data", data])
        #expect(revoked == 0)
        let (_, table) = try await runFlint(["admin", "service-accounts", "list", "--data", data])
        #expect(table.contains("backend") && table.contains("REVOKED"))
    }

    @Test("operators role and remove: audited, clear errors for an unknown operator, the last admin operator kept")
    func consoleOperators() async throws {
        let data = temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        func flint(_ arguments: String...) async throws -> (Int32, String) {
            try await runFlint(["admin", "operators"] + arguments + ["--data", data])
        }
        #expect(try await flint("add", "first@example.com").0 == 0)
        #expect(try await flint("add", "second@example.com", "--role", "read").0 == 0)

        let (lastDemoted, demoteOutput) = try await flint("role", "first@example.com", "read")
        #expect(lastDemoted != 0 && demoteOutput.contains("last console operator with the admin role"), "\(demoteOutput)")
        let (lastRemoved, removeOutput) = try await flint("remove", "first@example.com")
        #expect(lastRemoved != 0 && removeOutput.contains("last console operator with the admin role"), "\(removeOutput)")
        let (unknown, unknownOutput) = try await flint("remove", "nobody@example.com")
        #expect(unknown != 0 && unknownOutput.contains("no console operator has the email nobody@example.com"), "\(unknownOutput)")
        let (unknownRole, unknownRoleOutput) = try await flint("role", "nobody@example.com", "admin")
        #expect(unknownRole != 0 && unknownRoleOutput.contains("no console operator has the email nobody@example.com"))
        let (badRole, badRoleOutput) = try await flint("role", "second@example.com", "owner")
        #expect(badRole != 0 && badRoleOutput.contains("the role must be admin or read"), "\(badRoleOutput)")

        #expect(try await flint("role", "SECOND@example.com", "admin").0 == 0)
        let (removed, removedOutput) = try await flint("remove", "first@example.com")
        #expect(removed == 0 && removedOutput.contains("removed; 0 sessions ended"), "\(removedOutput)")
        let (_, table) = try await flint("list")
        #expect(!table.contains("first@example.com") && table.contains("second@example.com") && table.contains("admin"), "\(table)")

        let (_, audit) = try await runFlint(["audit", "list", "--kind", "CONSOLE_OPERATOR_CHANGED", "--json", "--data", data])
        #expect(audit.contains("\"roleChanged\"") && audit.contains("\"removed\""), "\(audit)")
    }
}
