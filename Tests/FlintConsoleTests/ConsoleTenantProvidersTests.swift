import FlintCore
import FlintServerTestSupport
import FlintStore
import FlintTesting
import HTTPTypes
import Testing

@testable import FlintConsole
@testable import FlintServer

@Suite("The web console's OIDC and SAML provider pages in a tenant (?tenant=)")
struct ConsoleTenantProvidersTests {
    /// The admin API's resources of a tenant's providers (the project's with `nil`).
    static func resources(_ tenant: String?, _ collection: String) -> String {
        "/identitytoolkit.googleapis.com/v2/projects/\(project)" + (tenant.map { "/tenants/\($0)" } ?? "") + "/" + collection
    }

    /// A new SAML provider's form, filled.
    static func samlForm(_ op: ConsoleOperator) -> [String: String] {
        [
            "csrf": op.csrf, "providerId": "saml.corp", "enabled": "true", "displayName": "Corp SAML", "idpEntityId": "https://idp.example/entity",
            "ssoUrl": "https://idp.example/sso", "certificates": SAMLFixture.certificate, "spEntityId": "flint-sp",
            "callbackUri": "https://auth.example/__/auth/handler",
        ]
    }

    @Test(
        "a tenant's OIDC provider is added, listed, changed and deleted on its pages, which keep the tenant; the project's and other tenants' lack it"
    )
    func oidcInTenant() async throws {
        try await withConsoleOperator { api, op in
            let (acme, globex) = (
                try await ConsoleTenantsTests.createTenant(api, op, "acme"), try await ConsoleTenantsTests.createTenant(api, op, "globex")
            )
            let tenantPage = try await api.console(.get, "/console/tenants/\(acme)", cookie: op.cookie)
            #expect(tenantPage.text.contains(#"<a href="/console/providers?tenant=\#(acme)">"#), "the tenant's page links to its providers")
            let empty = try await api.console(.get, "/console/providers?tenant=\(acme)", cookie: op.cookie)
            #expect(empty.status == .ok && empty.text.contains("No OpenID Connect or SAML provider yet."), "\(empty.text)")
            #expect(empty.text.contains(#"<a href="/console/providers/oidc?tenant=\#(acme)">"#), "links keep the tenant")
            #expect(empty.text.contains(#"<a href="/console/tenants/\#(acme)">Back to the tenant's settings</a>"#))
            let form = try await api.console(.get, "/console/providers/oidc?tenant=\(acme)", cookie: op.cookie)
            #expect(form.status == .ok && form.text.contains(#"action="/console/providers/oidc?tenant=\#(acme)""#), "\(form.text)")

            let added = try await api.console(
                .post, "/console/providers/oidc?tenant=\(acme)", form: ConsoleIdentityProvidersTests.oidcForm(op), cookie: op.cookie)
            #expect(added.status == .seeOther && added.headers[.location] == "/console/providers/oidc.corp?saved=1&tenant=\(acme)", "\(added.text)")
            let stored = try await api.admin(.get, Self.resources(acme, "oauthIdpConfigs") + "/oidc.corp")
            #expect(stored.string("clientId") == "corp-client" && stored.string("clientSecret") == "corp-s3cret", "\(stored.text)")
            let page = try await api.console(.get, "/console/providers/oidc.corp?saved=1&tenant=\(acme)", cookie: op.cookie)
            #expect(page.status == .ok && page.text.contains("Saved.") && !page.text.contains("corp-s3cret"), "\(page.text)")
            #expect(page.text.contains(#"action="/console/providers/oidc.corp?tenant=\#(acme)""#))
            #expect(page.text.contains(#"action="/console/providers/oidc.corp/delete?tenant=\#(acme)""#))
            let list = try await api.console(.get, "/console/providers?tenant=\(acme)", cookie: op.cookie)
            #expect(list.text.contains(#"<a href="/console/providers/oidc.corp?tenant=\#(acme)">Corp</a>"#), "\(list.text)")
            // The header's picker leads to the providers of the tenant picked.
            #expect(list.text.contains(#"<input type="hidden" name="next" value="/console/providers">"#))
            let picked = try await api.console(.get, "/console/tenants?next=/console/providers&find=globex", cookie: op.cookie)
            #expect(picked.text.contains(#"<a href="/console/providers?tenant=\#(globex)">"#), "\(picked.text)")

            // Apart: not in the other tenant's pages and list, nor in the project's.
            #expect(try await api.console(.get, "/console/providers/oidc.corp?tenant=\(globex)", cookie: op.cookie).status == .notFound)
            #expect(try await api.console(.get, "/console/providers/oidc.corp", cookie: op.cookie).status == .notFound)
            #expect(!(try await api.console(.get, "/console/providers?tenant=\(globex)", cookie: op.cookie).text.contains("oidc.corp")))
            #expect(!(try await api.console(.get, "/console/providers", cookie: op.cookie).text.contains("oidc.corp")))
            #expect(!(try await api.console(.get, "/console/settings", cookie: op.cookie).text.contains("oidc.corp")))
            #expect(try await api.admin(.get, Self.resources(globex, "oauthIdpConfigs"))["oauthIdpConfigs"] == nil)
            #expect(try await api.admin(.get, Self.resources(nil, "oauthIdpConfigs"))["oauthIdpConfigs"] == nil)

            // Changed by the same rules as the admin API: a bad issuer refused beside its field, then a good change.
            let refused = try await api.console(
                .post, "/console/providers/oidc.corp?tenant=\(acme)", form: ConsoleIdentityProvidersTests.oidcForm(op, ["issuer": "not a url"]),
                cookie: op.cookie)
            #expect(refused.status == .badRequest && refused.text.contains(#"id="issuer-error""#), "\(refused.text)")
            let changed = try await api.console(
                .post, "/console/providers/oidc.corp?tenant=\(acme)",
                form: ConsoleIdentityProvidersTests.oidcForm(op, ["displayName": "Corp SSO", "clientSecret": "", "flow": "idToken"]),
                cookie: op.cookie)
            #expect(changed.status == .seeOther && changed.headers[.location] == "/console/providers/oidc.corp?saved=1&tenant=\(acme)")
            let updated = try await api.admin(.get, Self.resources(acme, "oauthIdpConfigs") + "/oidc.corp")
            #expect(updated.string("displayName") == "Corp SSO" && updated.string("clientSecret") == "corp-s3cret", "\(updated.text)")
            #expect(updated["responseType"] == ["code": false, "idToken": true])

            let confirm = try await api.console(
                .post, "/console/providers/oidc.corp/delete?tenant=\(acme)", form: ["csrf": op.csrf], cookie: op.cookie)
            #expect(confirm.status == .ok && confirm.text.contains(#"action="/console/providers/oidc.corp/delete?tenant=\#(acme)""#))
            let deleted = try await api.console(
                .post, "/console/providers/oidc.corp/delete?tenant=\(acme)", form: ["csrf": op.csrf, "confirmed": "yes"], cookie: op.cookie)
            #expect(deleted.status == .seeOther && deleted.headers[.location] == "/console/providers?removed=oidc.corp&tenant=\(acme)")
            #expect(try await api.admin(.get, Self.resources(acme, "oauthIdpConfigs") + "/oidc.corp").status == .notFound)
            #expect(
                try await api.console(.get, "/console/providers?removed=oidc.corp&tenant=\(acme)", cookie: op.cookie).text.contains(
                    "oidc.corp deleted."))

            // Audited as the project's changes are, by the operator, naming the tenant (the change's and the event's).
            let events = try await api.auditEvents("kind=CONFIG_CHANGED").filter {
                $0["actor"] == "ops@example.com" && $0["detail"]?["tenant"]?.stringValue == acme && $0["detail"]?["tenantId"]?.stringValue == acme
            }
            for step in ["created", "updated", "deleted"] {
                #expect(events.contains { $0["detail"]?[step] == "oidc.corp" }, "\(step): \(events)")
            }
        }
    }

    @Test("a tenant's SAML provider shows its own SP certificate, the tenant's admin API's, and needs the session's CSRF token")
    func samlInTenant() async throws {
        try await withConsoleOperator { api, op in
            let acme = try await ConsoleTenantsTests.createTenant(api, op, "acme")
            let stale = try await api.console(
                .post, "/console/providers/saml?tenant=\(acme)", form: Self.samlForm(op).merging(["csrf": "stale"]) { $1 }, cookie: op.cookie)
            #expect(stale.status == .forbidden && stale.text.contains("The form is stale"))
            let added = try await api.console(.post, "/console/providers/saml?tenant=\(acme)", form: Self.samlForm(op), cookie: op.cookie)
            #expect(added.status == .seeOther && added.headers[.location] == "/console/providers/saml.corp?saved=1&tenant=\(acme)", "\(added.text)")
            let resource = try await api.admin(.get, Self.resources(acme, "inboundSamlConfigs") + "/saml.corp")
            let certificate = try #require(resource["spConfig"]?["spCertificates"]?.arrayValue?.first?["x509Certificate"]?.stringValue)
            let page = try await api.console(.get, "/console/providers/saml.corp?tenant=\(acme)", cookie: op.cookie)
            #expect(page.text.contains(#"<pre class="claims uri" id="spCertificate">"# + certificate), "\(page.text)")
            #expect(page.text.contains("In the tenant <code>\(acme)</code>"))
            #expect(try await api.admin(.get, Self.resources(nil, "inboundSamlConfigs") + "/saml.corp").status == .notFound)
            let list = try await api.console(.get, "/console/providers?tenant=\(acme)", cookie: op.cookie)
            #expect(list.text.contains("Corp SAML") && list.text.contains("https://idp.example/sso"))
        }
    }

    @Test("an operator limited to a tenant manages its providers and is refused (403) the providers of other tenants and of the project")
    func limitedOperator() async throws {
        let node = try await TestNode.make(modules: [ConsoleModule()])
        try await node.run { api in
            let admin = try await api.consoleSignIn(
                try await api.addOperator("admin@example.com", password: consoleTestPassword, store: node.store), password: consoleTestPassword)
            let (acme, globex) = (
                try await ConsoleTenantsTests.createTenant(api, admin, "acme"), try await ConsoleTenantsTests.createTenant(api, admin, "globex")
            )
            for path in ["/console/providers/oidc?tenant=\(globex)", "/console/providers/oidc"] {
                let added = try await api.console(.post, path, form: ConsoleIdentityProvidersTests.oidcForm(admin), cookie: admin.cookie)
                #expect(added.status == .seeOther, "\(added.text)")
            }
            let op = try await api.consoleSignIn(
                try await api.addOperator("acme-ops@example.com", password: consoleTestPassword, store: node.store), password: consoleTestPassword)
            _ = try await ConsoleOperators.setTenants(
                email: "acme-ops@example.com", tenants: [TenantID(rawValue: acme)], in: node.store, now: api.clock.now())

            let home = try await api.console(.get, "/console/providers", cookie: op.cookie)
            #expect(home.status == .seeOther && home.headers[.location] == "/console/providers?tenant=\(acme)", "opens in the operator's tenant")
            let own = try await api.console(
                .post, "/console/providers/oidc?tenant=\(acme)", form: ConsoleIdentityProvidersTests.oidcForm(op), cookie: op.cookie)
            #expect(own.status == .seeOther, "its own tenant's: \(own.text)")

            for path in [
                "/console/providers?tenant=\(globex)", "/console/providers/oidc.corp?tenant=\(globex)", "/console/providers/oidc?tenant=\(globex)",
                "/console/providers/oidc.corp", "/console/providers/saml",
            ] {
                let reply = try await api.console(.get, path, cookie: op.cookie)
                #expect(reply.status == .forbidden, "\(path): \(reply.status)")
            }
            let posts: [(String, [String: String])] = [
                ("/console/providers/oidc?tenant=\(globex)", ConsoleIdentityProvidersTests.oidcForm(op, ["providerId": "other"])),
                ("/console/providers/oidc.corp?tenant=\(globex)", ConsoleIdentityProvidersTests.oidcForm(op, ["displayName": "Taken"])),
                ("/console/providers/oidc.corp/delete?tenant=\(globex)", ["confirmed": "yes"]),
                ("/console/providers/oidc", ConsoleIdentityProvidersTests.oidcForm(op, ["providerId": "other"])),
                ("/console/providers/oidc.corp", ConsoleIdentityProvidersTests.oidcForm(op, ["displayName": "Taken"])),
                ("/console/providers/oidc.corp/delete", ["confirmed": "yes"]),
            ]
            for (path, fields) in posts {
                let reply = try await api.console(.post, path, form: fields.merging(["csrf": op.csrf]) { $1 }, cookie: op.cookie)
                #expect(reply.status == .forbidden, "\(path): \(reply.status) \(reply.text.prefix(200))")
            }
            for tenant in [globex, nil] {
                let list = try await api.admin(.get, Self.resources(tenant, "oauthIdpConfigs"))
                let ids = (list["oauthIdpConfigs"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue?.split(separator: "/").last }
                #expect(ids == ["oidc.corp"], "untouched: \(list.text)")
                #expect(try await api.admin(.get, Self.resources(tenant, "oauthIdpConfigs") + "/oidc.corp").string("displayName") == "Corp")
            }
        }
    }
}
