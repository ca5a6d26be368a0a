import Foundation
import Testing

@Suite("flint users commands, end to end", .serialized)
struct UsersCommandLineTests {
    @Test("create, get, update, set-claims, disable, enable, revoke, unlock, list and delete go through the API's rules")
    func manageUsers() async throws {
        let data = temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        func flint(_ arguments: String...) async throws -> (Int32, String) { try await runFlint(["users"] + arguments + ["--data", data]) }

        let (created, uid) = try await flint(
            "create", "--uid", "ada", "--email", "Ada@Example.com", "--phone", "+16505550142", "--display-name", "Ada")
        #expect(created == 0, "\(uid)")
        #expect(uid.trimmingCharacters(in: .whitespacesAndNewlines) == "ada")
        let (taken, duplicate) = try await flint("create", "--email", "ada@example.com")
        #expect(taken == 1 && duplicate.contains("EMAIL_EXISTS"), "\(duplicate)")
        let (badEmail, invalid) = try await flint("update", "ada", "--email", "not-an-email")
        #expect(badEmail == 1 && invalid.contains("INVALID_EMAIL"), "\(invalid)")

        #expect(try await flint("set-claims", "ada", #"{"admin":true}"#).0 == 0)
        let (reserved, forbidden) = try await flint("set-claims", "ada", #"{"sub":"x"}"#)
        #expect(reserved == 1 && forbidden.contains("FORBIDDEN_CLAIM : sub"), "\(forbidden)")
        #expect(try await flint("disable", "ada").0 == 0)
        #expect(try await flint("revoke", "ada").0 == 0)
        let (unlocked, notLocked) = try await flint("unlock", "ada")
        #expect(unlocked == 0 && notLocked.contains("ada was not locked"), "\(notLocked)")
        let (unknown, noAccount) = try await flint("unlock", "nobody")
        #expect(unknown == 1 && noAccount.contains("USER_NOT_FOUND"), "\(noAccount)")

        let (got, json) = try await flint("get", "--email", "ada@example.com", "--json")
        #expect(got == 0, "\(json)")
        let account = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        #expect(account?["localId"] as? String == "ada")
        #expect(account?["email"] as? String == "ada@example.com")
        #expect(account?["disabled"] as? Bool == true)
        #expect(account?["customAttributes"] as? String == #"{"admin":true}"#)
        let (_, human) = try await flint("get", "ada")
        #expect(human.contains("displayName: Ada") && human.contains("providers: phone"), "\(human)")

        #expect(try await flint("enable", "ada").0 == 0)
        #expect(try await flint("update", "ada", "--remove-phone", "--display-name", "Ada L.").0 == 0)
        let (_, updated) = try await flint("get", "ada", "--json")
        let changed = try JSONSerialization.jsonObject(with: Data(updated.utf8)) as? [String: Any]
        #expect(changed?["phoneNumber"] == nil && changed?["displayName"] as? String == "Ada L.", "\(updated)")
        for i in 0..<3 { #expect(try await flint("create", "--uid", "u\(i)").0 == 0) }
        let (listed, lines) = try await flint("list")
        #expect(listed == 0)
        let listedIDs: [String] = lines.split(separator: "\n").map { line in line.split(separator: " ").first.map(String.init) ?? "" }
        #expect(listedIDs == ["ada", "u0", "u1", "u2"], "\(lines)")
        let (_, limited) = try await flint("list", "--limit", "2", "--json")
        let page = try JSONSerialization.jsonObject(with: Data(limited.utf8)) as? [[String: Any]]
        #expect(page?.compactMap { $0["localId"] as? String } == ["ada", "u0"], "\(limited)")

        #expect(try await flint("delete", "u0", "u1").0 == 0)
        #expect(try await flint("delete", "ada").0 == 0)
        let (audited, auditList) = try await runFlint(["audit", "list", "--data", data, "--kind", "ACCOUNT_DELETED", "--json"])
        #expect(audited == 0, "\(auditList)")
        let events = (try JSONSerialization.jsonObject(with: Data(auditList.utf8)) as? [String: Any])?["auditEvents"] as? [[String: Any]] ?? []
        #expect(Set(events.compactMap { $0["localId"] as? String }) == ["u0", "u1", "ada"], "\(auditList)")
        #expect(events.allSatisfy { $0["actor"] as? String == "cli" }, "the command line is the actor")
        let (missing, notFound) = try await flint("get", "ada")
        #expect(missing == 1 && notFound.contains("USER_NOT_FOUND"))
        let (_, rest) = try await flint("list")
        #expect(rest.hasPrefix("u2"), "\(rest)")
    }

    @Test("--tenant manages a tenant's accounts: the same ID and email beside the project's, listed, changed and deleted apart")
    func tenantUsers() async throws {
        let data = temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        func flint(_ arguments: String...) async throws -> (Int32, String) { try await runFlint(["users"] + arguments + ["--data", data]) }
        let (made, tenantJSON) = try await runFlint(["tenants", "create", "Acme", "--data", data])
        #expect(made == 0, "\(tenantJSON)")
        let tenant = try #require(
            tenantJSON.range(of: #"tenants/acme-[a-z0-9]{5}"#, options: .regularExpression).map { String(tenantJSON[$0].dropFirst(8)) })

        #expect(try await flint("create", "--uid", "ada", "--email", "ada@example.com").0 == 0)
        let (inTenant, id) = try await flint("create", "--uid", "ada", "--email", "ada@example.com", "--tenant", tenant)
        #expect(inTenant == 0 && id.contains("ada"), "the same ID and email in the tenant is another account: \(id)")
        #expect(try await flint("update", "ada", "--display-name", "Tenant Ada", "--tenant", tenant).0 == 0)
        let (_, json) = try await flint("get", "ada", "--json", "--tenant", tenant)
        let account = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        #expect(account?["displayName"] as? String == "Tenant Ada" && account?["tenantId"] as? String == tenant, "\(json)")
        let (_, mine) = try await flint("get", "ada", "--json")
        #expect((try JSONSerialization.jsonObject(with: Data(mine.utf8)) as? [String: Any])?["displayName"] == nil, "\(mine)")
        #expect(try await flint("list", "--tenant", tenant).1.hasPrefix("ada"))
        #expect(try await flint("delete", "ada", "--tenant", tenant).0 == 0)
        #expect(try await flint("get", "ada").0 == 0, "the project's ada outlives the tenant's")
        let (unknown, missing) = try await flint("list", "--tenant", "nobody-abcde")
        #expect(unknown == 1 && missing.contains("TENANT_NOT_FOUND"), "\(missing)")
    }

    @Test("export and import --tenant move one tenant's accounts; doctor counts users per tenant; an operator is limited to tenants")
    func tenantTools() async throws {
        let data = temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        func flint(_ arguments: String...) async throws -> (Int32, String) { try await runFlint(arguments + ["--data", data]) }
        let (_, tenantJSON) = try await flint("tenants", "create", "Acme")
        let tenant = try #require(
            tenantJSON.range(of: #"tenants/acme-[a-z0-9]{5}"#, options: .regularExpression).map { String(tenantJSON[$0].dropFirst(8)) })
        #expect(try await flint("users", "create", "--uid", "ada", "--email", "ada@example.com", "--tenant", tenant).0 == 0)
        #expect(try await flint("users", "create", "--uid", "bob", "--email", "bob@example.com").0 == 0)

        let file = data + "/acme.json"
        let (exported, summary) = try await flint("users", "export", file, "--tenant", tenant, "--json")
        #expect(exported == 0 && summary.contains(#""users" : 1"#), "\(summary)")
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.contains("ada@example.com") && !text.contains("bob@example.com"), "\(text)")
        let project = data + "/project.json"
        #expect(try await flint("users", "export", project).0 == 0)
        let projectText = try String(contentsOfFile: project, encoding: .utf8)
        #expect(projectText.contains("bob@example.com") && !projectText.contains("ada@example.com"))

        #expect(try await flint("users", "delete", "ada", "--tenant", tenant).0 == 0)
        let (imported, line) = try await flint("users", "import", file, "--tenant", tenant)
        #expect(imported == 0 && line.contains("1"), "\(line)")
        #expect(try await flint("users", "get", "ada", "--tenant", tenant).0 == 0, "the export came back into its tenant")
        #expect(try await flint("users", "get", "ada").0 == 1, "and not into the project's users")
        let (unknown, refusal) = try await flint("users", "export", project, "--tenant", "nobody-abcde")
        #expect(unknown != 0 && refusal.contains("no tenant has"), "\(refusal)")

        let (_, doctor) = try await flint("doctor")
        #expect(doctor.contains("2 user(s) in 2 tenant(s)") && doctor.contains("1 in tenant \(tenant)"), "\(doctor)")
        #expect(doctor.contains("1 in the project (default tenant)"), "\(doctor)")

        #expect(try await flint("admin", "operators", "add", "ops@example.com").0 == 0)
        let (limited, said) = try await flint("admin", "operators", "tenants", "ops@example.com", tenant, "--project")
        #expect(limited == 0 && said.contains("project,\(tenant)"), "\(said)")
        #expect(try await flint("admin", "operators", "list").1.contains("project,\(tenant)"))
        let (missing, none) = try await flint("admin", "operators", "tenants", "ops@example.com", "nobody-abcde")
        #expect(missing != 0 && none.contains("no tenant has the ID nobody-abcde"), "\(none)")
        #expect(try await flint("admin", "operators", "tenants", "ops@example.com", "--all").0 == 0)
        let (_, listed) = try await flint("admin", "operators", "list")
        #expect(listed.contains("ops@example.com") && listed.contains("all"), "\(listed)")
        let (_, audit) = try await flint("audit", "list", "--kind", "CONSOLE_OPERATOR_CHANGED")
        #expect(audit.contains("tenantsChanged"), "\(audit)")
    }
}
