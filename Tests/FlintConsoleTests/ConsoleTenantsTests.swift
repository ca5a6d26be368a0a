import FlintCore
import FlintServerTestSupport
import FlintStore
import FlintTesting
import Foundation
import HTTPTypes
import Testing

@testable import FlintConsole
@testable import FlintServer

@Suite("The console per tenant: the tenants pages, pages acting in the URL's tenant, operators limited to tenants")
struct ConsoleTenantsTests {
    /// Creates a tenant through the console's form; its ID.
    static func createTenant(_ api: API, _ op: ConsoleOperator, _ name: String) async throws -> String {
        let reply = try await api.console(
            .post, "/console/tenants", form: ["csrf": op.csrf, "displayName": name, "allowPasswordSignup": "on"], cookie: op.cookie)
        #expect(reply.status == .seeOther, "\(reply.text)")
        let location = try #require(reply.headers[.location])
        #expect(location.hasSuffix("?created=1"), "\(location)")
        return String(location.dropFirst("/console/tenants/".count).prefix { $0 != "?" })
    }

    /// Adds a user through the console's form in `tenant` (the project's when empty); its ID.
    static func createUser(_ api: API, _ op: ConsoleOperator, _ email: String, tenant: String) async throws -> String {
        let query = tenant.isEmpty ? "" : "?tenant=\(tenant)"
        let reply = try await api.console(
            .post, "/console/new-user\(query)", form: ["csrf": op.csrf, "email": email, "password": "correct horse battery"], cookie: op.cookie)
        #expect(reply.status == .seeOther, "\(reply.text)")
        let location = try #require(reply.headers[.location])
        #expect(
            tenant.isEmpty ? !location.contains("tenant=") : location.hasSuffix("&tenant=\(tenant)"), "the redirect keeps the tenant: \(location)")
        return String(location.dropFirst("/console/users/".count).prefix { $0 != "?" })
    }

    @Test("a tenant made on the tenants page is found by the picker; a user added in it is listed, found and exported only there")
    func usersInTenant() async throws {
        try await withConsoleOperator { api, op in
            let refused = try await api.console(.post, "/console/tenants", form: ["csrf": op.csrf, "displayName": "no"], cookie: op.cookie)
            #expect(refused.status == .badRequest && refused.text.contains(#"id="displayName-error">INVALID_DISPLAY_NAME"#), "\(refused.text)")
            let tenant = try await Self.createTenant(api, op, "acme-corp")
            #expect(tenant.hasPrefix("acme-corp-"))

            let picker = try await api.console(.get, "/console/tenants", cookie: op.cookie)
            #expect(picker.text.contains(#"href="/console/users?tenant=\#(tenant)""#) && picker.text.contains("Project (default tenant)"))
            #expect(try await api.console(.get, "/console/tenants?q=acme", cookie: op.cookie).text.contains(tenant))
            #expect(try await api.console(.get, "/console/tenants?find=acme", cookie: op.cookie).text.contains(tenant), "the header's picker")
            #expect(try await api.console(.get, "/console/tenants?q=\(tenant)", cookie: op.cookie).text.contains(tenant), "an exact ID")
            #expect(try await api.console(.get, "/console/tenants?q=zz", cookie: op.cookie).text.contains("No tenant matches"))
            let fromSecurity = try await api.console(.get, "/console/tenants?next=/console/security", cookie: op.cookie)
            #expect(fromSecurity.text.contains(#"href="/console/security?tenant=\#(tenant)""#), "the picker opens the page it came from")

            let uid = try await Self.createUser(api, op, "ada@acme.example", tenant: tenant)
            let projectUID = try await Self.createUser(api, op, "bob@example.com", tenant: "")
            let list = try await api.console(.get, "/console/users?tenant=\(tenant)", cookie: op.cookie)
            #expect(list.status == .ok && list.text.contains("ada@acme.example") && !list.text.contains("bob@example.com"))
            #expect(list.text.contains("Tenant: <strong>acme-corp (\(tenant))</strong>"), "the picker names the tenant")
            #expect(list.text.contains(#"href="/console/users/\#(uid)?tenant=\#(tenant)""#), "links keep the tenant")
            #expect(list.text.contains(#"<input type="hidden" name="tenant" value="\#(tenant)">"#), "the search form keeps it")
            let project = try await api.console(.get, "/console/users", cookie: op.cookie)
            #expect(project.text.contains("bob@example.com") && !project.text.contains("ada@acme.example"))
            let search = try await api.console(.get, "/console/users?q=ada%40acme.example", cookie: op.cookie)
            #expect(!search.text.contains(uid), "the project's search does not reach the tenant")
            #expect(try await api.console(.get, "/console/users?q=ada%40acme.example&tenant=\(tenant)", cookie: op.cookie).text.contains(uid))

            #expect(try await api.console(.get, "/console/users/\(uid)", cookie: op.cookie).status == .notFound)
            #expect(try await api.console(.get, "/console/users/\(projectUID)?tenant=\(tenant)", cookie: op.cookie).status == .notFound)
            let page = try await api.console(.get, "/console/users/\(uid)?tenant=\(tenant)", cookie: op.cookie)
            #expect(page.status == .ok && page.text.contains(#"action="/console/users/\#(uid)/actions?tenant=\#(tenant)""#))
            let disable = try await api.console(
                .post, "/console/users/\(uid)/actions?tenant=\(tenant)", form: ["csrf": op.csrf, "action": "disable", "confirmed": "yes"],
                cookie: op.cookie)
            #expect(disable.status == .seeOther && disable.headers[.location] == "/console/users/\(uid)?done=disable&tenant=\(tenant)")

            let events = try await api.auditEvents("kind=ADMIN_ACTION")
            let tenantEvents = events.filter { $0["detail"]?["tenantId"]?.stringValue == tenant }
            let actions = Set(tenantEvents.compactMap { $0["detail"]?["action"]?.stringValue })
            #expect(actions.isSuperset(of: ["create", "disable"]), "\(events)")
            #expect(tenantEvents.allSatisfy { $0["localId"]?.stringValue == uid }, "\(tenantEvents)")
            #expect(events.contains { $0["localId"]?.stringValue == projectUID && $0["detail"]?["tenantId"] == nil })
            let audit = try await api.console(.get, "/console/security?tenant=\(tenant)", cookie: op.cookie)
            #expect(audit.text.contains(uid) && !audit.text.contains(projectUID), "the audit view shows the tenant's events")
            let projectAudit = try await api.console(.get, "/console/security", cookie: op.cookie)
            #expect(projectAudit.text.contains(projectUID) && !projectAudit.text.contains(uid))

            let export = try await api.console(
                .post, "/console/export?tenant=\(tenant)", form: ["csrf": op.csrf, "format": "json"], cookie: op.cookie)
            #expect(export.status == .ok && export.text.contains("ada@acme.example") && !export.text.contains("bob@example.com"), "\(export.text)")
            #expect(export.headers[.contentDisposition]?.contains("flint-users-\(tenant)-") == true)
            let projectExport = try await api.console(.post, "/console/export", form: ["csrf": op.csrf, "format": "json"], cookie: op.cookie)
            #expect(projectExport.text.contains("bob@example.com") && !projectExport.text.contains("ada@acme.example"))
            let transfers = try await api.console(.get, "/console/import?tenant=\(tenant)", cookie: op.cookie)
            #expect(transfers.text.contains(#"action="/console/export?tenant=\#(tenant)""#))
            #expect(try await api.console(.get, "/console/users?tenant=nobody-abcde", cookie: op.cookie).status == .notFound)
        }
    }

    @Test("a tenant's page saves its settings through the admin API's rules, shows their errors beside the field, and deletes it")
    func tenantSettings() async throws {
        let node = try await TestNode.make(modules: [ConsoleModule()])
        try await node.run { api in
            let op = try await api.consoleSignIn(
                try await api.addOperator("ops@example.com", password: consoleTestPassword, store: node.store), password: consoleTestPassword)
            let tenant = try await Self.createTenant(api, op, "globex")
            let path = "/console/tenants/\(tenant)"
            var form = [
                "csrf": op.csrf, "displayName": "globex", "allowPasswordSignup": "on", "enableAnonymousUser": "on", "mfaState": "ENABLED",
                "mfaSMS": "on", "testPhoneNumbers": "+16505550101 123456",
            ]
            let saved = try await api.console(.post, path, form: form, cookie: op.cookie)
            #expect(saved.status == .seeOther && saved.headers[.location] == "\(path)?saved=1", "\(saved.text)")
            let stored = try await TenantAdmin(store: node.store, clock: api.clock, random: SystemRandom(), masterKey: nil).get(tenant)
            #expect(stored.allowPasswordSignup && stored.enableAnonymousUser && !stored.enableEmailLinkSignin)
            #expect(stored.document["mfaConfig"]?["state"]?.stringValue == "ENABLED")
            #expect(stored.document["testPhoneNumbers"]?["+16505550101"]?.stringValue == "123456", "\(stored.document)")
            let page = try await api.console(.get, path, cookie: op.cookie)
            #expect(page.text.contains("+16505550101 123456") && page.text.contains(#"name="mfaSMS" checked"#))

            form["displayName"] = "x"
            let badName = try await api.console(.post, path, form: form, cookie: op.cookie)
            #expect(badName.status == .badRequest && badName.text.contains(#"id="displayName-error">INVALID_DISPLAY_NAME"#), "\(badName.text)")
            form["displayName"] = "globex"
            form["testPhoneNumbers"] = "+1650 123456 and more"
            let badLine = try await api.console(.post, path, form: form, cookie: op.cookie)
            #expect(badLine.status == .badRequest && badLine.text.contains(#"id="tpn-error""#), "\(badLine.text)")
            form["testPhoneNumbers"] = "not-a-number 123456"
            let badNumbers = try await api.console(.post, path, form: form, cookie: op.cookie)
            #expect(badNumbers.status == .badRequest && badNumbers.text.contains(#"id="tpn-error""#), "\(badNumbers.text)")

            let events = try await api.auditEvents("kind=CONFIG_CHANGED")
            #expect(events.contains { $0["detail"]?["tenant"]?.stringValue == tenant && $0["actor"]?.stringValue == "ops@example.com" })

            let unconfirmed = try await api.console(.post, path + "/delete", form: ["csrf": op.csrf], cookie: op.cookie)
            #expect(unconfirmed.status == .badRequest)
            let deleted = try await api.console(.post, path + "/delete", form: ["csrf": op.csrf, "confirmed": "yes"], cookie: op.cookie)
            #expect(deleted.status == .ok && deleted.text.contains("deleted"))
            #expect(try await api.console(.get, path, cookie: op.cookie).status == .notFound)
            #expect(try await api.console(.get, "/console/users?tenant=\(tenant)", cookie: op.cookie).status == .notFound)
            let stale = try await api.console(.post, path, form: ["displayName": "globex"], cookie: op.cookie)
            #expect(stale.status == .forbidden, "every form is CSRF-checked")
        }
    }

    @Test("an operator limited to a tenant sees only it and is refused (403) every other tenant's and the project's pages and forms")
    func limitedOperator() async throws {
        let node = try await TestNode.make(modules: [ConsoleModule()])
        try await node.run { api in
            let admin = try await api.consoleSignIn(
                try await api.addOperator("admin@example.com", password: consoleTestPassword, store: node.store), password: consoleTestPassword)
            let (acme, globex) = (try await Self.createTenant(api, admin, "acme"), try await Self.createTenant(api, admin, "globex"))
            let acmeUser = try await Self.createUser(api, admin, "ada@acme.example", tenant: acme)
            let globexUser = try await Self.createUser(api, admin, "gus@globex.example", tenant: globex)
            let projectUser = try await Self.createUser(api, admin, "bob@example.com", tenant: "")

            let op = try await api.consoleSignIn(
                try await api.addOperator("acme-ops@example.com", password: consoleTestPassword, store: node.store), password: consoleTestPassword)
            _ = try await ConsoleOperators.setTenants(
                email: "acme-ops@example.com", tenants: [TenantID(rawValue: acme)], in: node.store, now: api.clock.now())

            let picker = try await api.console(.get, "/console/tenants", cookie: op.cookie)
            #expect(picker.status == .ok && picker.text.contains(acme) && !picker.text.contains(globex), "\(picker.text)")
            #expect(!picker.text.contains("Project (default tenant)") && !picker.text.contains("New tenant"))
            #expect(!picker.text.contains(#"href="/console/settings""#), "the project's sections are not offered")
            for list in ["/console/users", "/console/import", "/console/security"] {
                let home = try await api.console(.get, list, cookie: op.cookie)
                #expect(home.status == .seeOther && home.headers[.location] == "\(list)?tenant=\(acme)", "a list page opens in the operator's tenant")
            }
            #expect(try await api.console(.get, "/console/dashboard", cookie: op.cookie).headers[.location] == "/console/tenants")
            let own = try await api.console(.get, "/console/users?tenant=\(acme)", cookie: op.cookie)
            #expect(own.status == .ok && own.text.contains("ada@acme.example"))
            #expect(try await api.console(.get, "/console/users/\(acmeUser)?tenant=\(acme)", cookie: op.cookie).status == .ok)

            let refusedGets = [
                "/console/users?tenant=\(globex)", "/console/users/\(globexUser)?tenant=\(globex)", "/console/users/\(projectUser)",
                "/console/new-user?tenant=\(globex)", "/console/import?tenant=\(globex)", "/console/import/nojob",
                "/console/security?tenant=\(globex)", "/console/settings", "/console/keys", "/console/webhooks", "/console/templates",
                "/console/deliveries", "/console/usage.csv", "/console/tenants/\(globex)", "/console/users?tenant=nobody-abcde",
                "/console/provider-test/result?hop=1",
            ]
            for path in refusedGets {
                let reply = try await api.console(.get, path, cookie: op.cookie)
                #expect(reply.status == .forbidden, "\(path): \(reply.status)")
            }
            let posts: [(String, [String: String])] = [
                ("/console/users/\(globexUser)/actions?tenant=\(globex)", ["action": "disable", "confirmed": "yes"]),
                ("/console/users/\(projectUser)/actions", ["action": "delete", "confirmed": "yes"]),
                ("/console/users/bulk?tenant=\(globex)", ["action": "disable", "uid": globexUser, "confirmed": "yes"]),
                ("/console/new-user?tenant=\(globex)", ["email": "eve@globex.example", "password": "correct horse battery"]),
                ("/console/new-user", ["email": "eve@example.com", "password": "correct horse battery"]),
                ("/console/export?tenant=\(globex)", ["format": "json"]), ("/console/export", ["format": "json"]),
                ("/console/import?tenant=\(globex)", [:]), ("/console/tenants", ["displayName": "initech"]),
                ("/console/tenants/\(globex)", ["displayName": "globex"]), ("/console/tenants/\(acme)/delete", ["confirmed": "yes"]),
                ("/console/settings/test-numbers", ["number": "+16505550199", "code": "123456"]),
            ]
            for (path, fields) in posts {
                let reply = try await api.console(.post, path, form: fields.merging(["csrf": op.csrf]) { $1 }, cookie: op.cookie)
                #expect(reply.status == .forbidden, "\(path): \(reply.status) \(reply.text.prefix(200))")
            }
            let globexAccounts = try await node.store.read { try await $0.users(tenant: TenantID(rawValue: globex), localIDs: [globexUser]) }
            #expect(globexAccounts.first?.disabled == false, "the other tenant's account is untouched")
            #expect(try await node.store.read { try await $0.user(tenant: .default, localID: projectUser) } != nil)
            #expect(try await node.store.read { try await $0.tenant(id: acme) } != nil, "the operator could not delete its tenant")
            #expect(try await node.store.read { try await $0.tenant(id: globex) } != nil)

            _ = try await ConsoleOperators.setTenants(
                email: "acme-ops@example.com", tenants: [TenantID(rawValue: acme), .default], in: node.store, now: api.clock.now())
            #expect(try await api.console(.get, "/console/users", cookie: op.cookie).text.contains("bob@example.com"), "allowed the project")
            #expect(try await api.console(.get, "/console/users?tenant=\(globex)", cookie: op.cookie).status == .forbidden)
            let changes = try await api.auditEvents("kind=CONSOLE_OPERATOR_CHANGED")
            #expect(changes.contains { $0["detail"]?["step"]?.stringValue == "tenantsChanged" && $0["detail"]?["project"]?.boolValue == true })
        }
    }

    @Test("a read-only operator sees a tenant's values and is refused (403) every change")
    func readOnlyOperator() async throws {
        let node = try await TestNode.make(modules: [ConsoleModule()])
        try await node.run { api in
            let admin = try await api.consoleSignIn(
                try await api.addOperator("admin@example.com", password: consoleTestPassword, store: node.store), password: consoleTestPassword)
            let tenant = try await Self.createTenant(api, admin, "acme")
            let uid = try await Self.createUser(api, admin, "ada@acme.example", tenant: tenant)
            let reader = try await api.consoleSignIn(
                try await api.addOperator("reader@example.com", role: .read, password: consoleTestPassword, store: node.store),
                password: consoleTestPassword)
            let page = try await api.console(.get, "/console/tenants/\(tenant)", cookie: reader.cookie)
            #expect(page.status == .ok && page.text.contains("<fieldset disabled>") && !page.text.contains(">Save</button>"))
            #expect(!page.text.contains("Delete this tenant"))
            #expect(try await api.console(.get, "/console/users?tenant=\(tenant)", cookie: reader.cookie).text.contains("ada@acme.example"))
            let posts: [(String, [String: String])] = [
                ("/console/tenants", ["displayName": "initech"]), ("/console/tenants/\(tenant)", ["displayName": "acme"]),
                ("/console/tenants/\(tenant)/delete", ["confirmed": "yes"]),
                ("/console/new-user?tenant=\(tenant)", ["email": "eve@acme.example", "password": "correct horse battery"]),
                ("/console/users/\(uid)/actions?tenant=\(tenant)", ["action": "disable", "confirmed": "yes"]),
            ]
            for (path, fields) in posts {
                let reply = try await api.console(.post, path, form: fields.merging(["csrf": reader.csrf]) { $1 }, cookie: reader.cookie)
                #expect(reply.status == .forbidden, "\(path): \(reply.status)")
            }
        }
    }
}
