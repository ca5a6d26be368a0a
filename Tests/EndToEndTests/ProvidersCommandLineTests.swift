import FlintServerTestSupport
import Foundation
import Testing

@Suite("flint providers saml, end to end", .serialized)
struct ProvidersCommandLineTests {
    @Test("create, get, update, list and delete a SAML provider of the project and of a tenant, by the admin API's rules")
    func manageSAML() async throws {
        let data = temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let pem = data + ".pem"
        try SAMLFixture.certificate.write(toFile: pem, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: pem) }
        func flint(_ arguments: String...) async throws -> (Int32, String) {
            try await runFlint(["providers", "saml"] + arguments + ["--data", data])
        }
        let create = [
            "--idp-entity-id", "https://idp.example", "--sso-url", "https://idp.example/sso", "--certificate", pem, "--sp-entity-id", "flint",
            "--callback-url", "https://app.example/__/auth/handler",
        ]

        let (created, json) = try await runFlint(["providers", "saml", "create", "saml.corp"] + create + ["--data", data])
        #expect(created == 0 && json.contains(#""name" : "projects/demo-flint/inboundSamlConfigs/saml.corp""#), "\(json)")
        let (taken, duplicate) = try await runFlint(["providers", "saml", "create", "saml.corp"] + create + ["--data", data])
        #expect(taken != 0 && duplicate.contains("CONFIGURATION_EXISTS"), "\(duplicate)")
        let (badID, invalid) = try await runFlint(["providers", "saml", "create", "oidc.corp"] + create + ["--data", data])
        #expect(badID != 0 && invalid.contains("INVALID_PROVIDER_ID"), "\(invalid)")
        let (updated, changed) = try await flint("update", "saml.corp", "idpConfig.ssoUrl", "https://idp.example/two")
        #expect(updated == 0 && changed.contains("https://idp.example/two"), "\(changed)")
        let (badURL, refused) = try await flint("update", "saml.corp", "spConfig.callbackUri", "nowhere")
        #expect(badURL != 0 && refused.contains("INVALID_CONFIG"), "\(refused)")
        #expect(try await flint("list").1.contains("saml.corp"))
        // Its SP certificates (spConfig's, after idpConfig's one in key order), the same on every read until a rollover's steps.
        func spCertificates(_ output: String) -> [String] {
            Array(output.matches(of: #/"x509Certificate" : "(-----BEGIN CERTIFICATE-----[^"]+)"/#).map { String($0.output.1) }.dropFirst())
        }
        let first = try #require(spCertificates(json).first, "\(json)")
        #expect(spCertificates(try await flint("get", "saml.corp").1) == [first])
        let (staged, staging) = try await flint("rotate-sp-key", "saml.corp")
        let second = try #require(spCertificates(staging).last, "\(staging)")
        #expect(staged == 0 && spCertificates(staging) == [first, second] && second != first, "the new one published, the old one first: it signs")
        #expect(try await flint("rotate-sp-key", "saml.corp").1.contains("activate it first"))
        #expect(try await flint("rotate-sp-key", "saml.corp", "--retire").1.contains("no SP key older"))
        let (activated, activation) = try await flint("rotate-sp-key", "saml.corp", "--activate")
        #expect(activated == 0 && spCertificates(activation) == [second, first], "\(activation)")
        let (retired, retirement) = try await flint("rotate-sp-key", "saml.corp", "--retire")
        #expect(retired == 0 && spCertificates(retirement) == [second], "\(retirement)")
        #expect(spCertificates(try await flint("get", "saml.corp").1) == [second])
        #expect(try await flint("rotate-sp-key", "saml.corp", "--retire-after-hours", "2").0 != 0, "only with --activate")
        #expect(try await flint("rotate-sp-key", "saml.nobody").1.contains("CONFIGURATION_NOT_FOUND"))

        let (noTenant, missing) = try await runFlint(
            ["providers", "saml", "create", "saml.corp"] + create + ["--tenant", "nobody-abcde", "--data", data])
        #expect(noTenant != 0 && missing.contains("TENANT_NOT_FOUND"), "\(missing)")
        let (tenantMade, tenantJSON) = try await runFlint(["tenants", "create", "Acme", "--data", data])
        #expect(tenantMade == 0, "\(tenantJSON)")
        let tenant = try #require(
            tenantJSON.range(of: #"tenants/acme-[a-z0-9]{5}"#, options: .regularExpression).map { String(tenantJSON[$0].dropFirst(8)) })
        let (inTenant, tenantSAML) = try await runFlint(
            ["providers", "saml", "create", "saml.corp"] + create + ["--tenant", tenant, "--data", data])
        #expect(inTenant == 0 && tenantSAML.contains("tenants/\(tenant)/inboundSamlConfigs/saml.corp"), "\(tenantSAML)")
        #expect(try await flint("get", "saml.corp", "--tenant", tenant).1.contains("https://idp.example/sso"), "the tenant's own copy")
        #expect(try await flint("delete", "saml.corp", "--tenant", tenant).0 == 0)
        #expect(try await flint("get", "saml.corp", "--tenant", tenant).1.contains("CONFIGURATION_NOT_FOUND"))
        #expect(try await flint("delete", "saml.corp").0 == 0)
        #expect(try await flint("get", "saml.corp").1.contains("CONFIGURATION_NOT_FOUND"))
    }
}
