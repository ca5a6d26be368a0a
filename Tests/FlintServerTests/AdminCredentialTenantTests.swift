import FlintCore
import FlintServerTestSupport
import FlintStore
import FlintTesting
import Foundation
import HTTPTypes
import HummingbirdTesting
import Logging
import Testing

@testable import FlintServer

/// Named admin credentials limited to tenants (issue 32; `flint admin tokens create --tenant`, `flint admin tokens
/// tenants`): such a credential acts only in its tenants, and every other call is Firebase's 403.
@Suite("Admin credentials limited to tenants")
struct AdminCredentialTenantTests {
    static let v1Project = "\(Path.v1)/projects/\(project)"
    static let v2Project = "/identitytoolkit.googleapis.com/v2/projects/\(project)"

    /// A node on a fresh `engine` store with tenants A and B (passwords allowed), the store beside it for the
    /// credentials' changes, as `flint admin tokens` makes them on any node's store.
    private func withTenants(
        _ engine: StoreEngine, _ body: @escaping @Sendable (API, any AuthStore, _ a: String, _ b: String) async throws -> Void
    ) async throws {
        let store = try await engine.open(try await engine.freshLocation())
        do {
            var settings = ServerSettings()
            settings.port = 0
            settings.passwordHashParameters = PasswordHashParameters(logN: 10)
            var logger = Logger(label: "tenant-credentials")
            logger.logLevel = .warning
            let clock = ManualClock(Instant(Date()))
            let server = try await FlintServer(settings: settings, store: store, clock: clock, logger: logger)
            try await server.application.test(.router) { client in
                let api = API(client: client, clock: clock)
                let a = try await TenantTests.create(api, #"{"displayName":"tenant-a","allowPasswordSignup":true}"#)
                let b = try await TenantTests.create(api, #"{"displayName":"tenant-b","allowPasswordSignup":true}"#)
                try await body(api, store, a, b)
            }
        } catch {
            try? await store.close()
            throw error
        }
        try await store.close()
    }

    /// A new credential's secret, limited to `tenants` (`nil`: none).
    static func credential(
        _ name: String, scope: AdminScope = .write, tenants: [TenantID]?, in store: any AuthStore, api: API
    ) async throws -> String {
        try await AdminCredentialChanges.create(name: name, scope: scope, tenants: tenants, in: store, now: api.clock.now(), random: SystemRandom())
    }

    /// Expects Firebase's 403 for the read scope's refusal.
    static func expectRefused(_ reply: Reply, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(reply.status == .forbidden, "\(what): \(reply.text)", sourceLocation: sourceLocation)
        #expect(reply.errorCode == "INSUFFICIENT_PERMISSION", "\(what)", sourceLocation: sourceLocation)
        #expect(reply.json["error"]?["status"] == "PERMISSION_DENIED", "\(what)", sourceLocation: sourceLocation)
    }

    @Test(
        "a credential limited to tenant A manages A's users, providers and email links, and is refused on B, the project and the tenants",
        arguments: StoreEngine.all)
    func limitedToOneTenant(engine: StoreEngine) async throws {
        try await withTenants(engine) { api, store, a, b in
            let secret = try await Self.credential("acme", tenants: [TenantID(rawValue: a)], in: store, api: api)
            let inA = "\(Self.v1Project)/tenants/\(a)"
            let call = { (method: HTTPRequest.Method, path: String, body: String?) in try await api.bearer(secret, method, path, body: body) }

            // A's users: created, read, updated (through the tenant's paths and the flat ones naming A), deleted.
            let created = try await call(.post, "\(inA)/accounts", #"{"localId":"ada","email":"ada@example.com","password":"secret-1"}"#)
            #expect(created.status == .ok, "\(created.text)")
            let lookup = try await call(.post, "\(inA)/accounts:lookup", #"{"localId":["ada"]}"#)
            #expect(lookup["users"]?.arrayValue?.first?["email"] == "ada@example.com", "\(lookup.text)")
            let flat = try await call(.post, "\(Self.v1Project)/accounts:update", #"{"tenantId":"\#(a)","localId":"ada","displayName":"Ada"}"#)
            #expect(flat.status == .ok, "\(flat.text)")
            let query = try await call(.post, "\(inA)/accounts:query", #"{"returnUserInfo":true}"#)
            #expect(query["userInfo"]?.arrayValue?.first?["displayName"] == "Ada", "\(query.text)")
            let link = try await call(
                .post, "\(inA)/accounts:sendOobCode", #"{"requestType":"PASSWORD_RESET","email":"ada@example.com","returnOobLink":true}"#)
            #expect(link.string("oobLink")?.contains("tenantId=\(a)") == true, "\(link.text)")
            #expect(try await call(.post, "\(inA)/accounts:delete", #"{"localId":"ada"}"#).status == .ok)

            // A's providers, and A's own resource.
            let providers = "\(Self.v2Project)/tenants/\(a)/oauthIdpConfigs"
            let oidc = #"{"enabled":true,"clientId":"c1","issuer":"https://id.corp.example"}"#
            #expect(try await call(.post, "\(providers)?oauthIdpConfigId=oidc.corp", oidc).status == .ok)
            #expect(try await call(.get, "\(providers)/oidc.corp", nil).string("clientId") == "c1")
            #expect(try await call(.patch, "\(providers)/oidc.corp?updateMask=clientId", #"{"clientId":"c2"}"#).status == .ok)
            #expect(try await call(.delete, "\(providers)/oidc.corp", nil).status == .ok)
            #expect(try await call(.get, "\(TenantTests.tenants)/\(a)", nil).string("displayName") == "tenant-a")

            // Everything else: B's users and providers, the project's, the tenants' collection, A's deletion.
            _ = try await api.admin(.post, "\(Self.v1Project)/tenants/\(b)/accounts", body: #"{"localId":"bob"}"#)
            _ = try await api.admin(.post, "\(Self.v1Project)/accounts", body: #"{"localId":"root"}"#)
            let refused: [(String, HTTPRequest.Method, String, String?)] = [
                ("B's users", .post, "\(Self.v1Project)/tenants/\(b)/accounts:lookup", #"{"localId":["bob"]}"#),
                ("B's user created", .post, "\(Self.v1Project)/tenants/\(b)/accounts", #"{"localId":"eve"}"#),
                ("B through the flat route", .post, "\(Self.v1Project)/accounts:lookup", #"{"tenantId":"\#(b)","localId":["bob"]}"#),
                ("B's ID in the query", .get, "\(Self.v1Project)/accounts:batchGet?tenantId=\(b)&maxResults=5", nil),
                ("B's providers", .get, "\(Self.v2Project)/tenants/\(b)/oauthIdpConfigs", nil),
                ("B's resource", .get, "\(TenantTests.tenants)/\(b)", nil),
                ("an unknown tenant", .post, "\(Self.v1Project)/tenants/nobody-abcde/accounts:lookup", #"{"localId":["x"]}"#),
                ("the project's users", .post, "\(Self.v1Project)/accounts:lookup", #"{"localId":["root"]}"#),
                ("the project's user deleted", .post, "\(Self.v1Project)/accounts:delete", #"{"localId":"root"}"#),
                ("the project's providers", .get, "\(Self.v2Project)/oauthIdpConfigs", nil),
                ("the project's config", .get, Path.config, nil),
                (
                    "the project's config changed", .patch, Path.config + "?updateMask=signIn.anonymous.enabled",
                    #"{"signIn":{"anonymous":{"enabled":true}}}"#
                ),
                ("key rotation", .post, "/flint/v1/projects/\(project)/keys:rotate", "{}"),
                ("the audit log", .get, "/flint/v1/projects/\(project)/auditEvents", nil),
                ("tenant creation", .post, TenantTests.tenants, #"{"displayName":"tenant-c"}"#),
                ("the tenants' list", .get, TenantTests.tenants, nil),
                ("its own tenant's deletion", .delete, "\(TenantTests.tenants)/\(a)", nil),
            ]
            for (what, method, path, body) in refused { Self.expectRefused(try await call(method, path, body), what) }
            #expect(
                try await api.admin(.post, "\(Self.v1Project)/tenants/\(b)/accounts:lookup", body: #"{"localId":["bob","eve"]}"#)["users"]?
                    .arrayValue?.count == 1)
            #expect(try await api.admin(.get, "\(TenantTests.tenants)/\(a)").status == .ok, "A stays")
        }
    }

    @Test("a changed limit holds from the next call, revocation too; every change is audited", arguments: StoreEngine.all)
    func changesTakeEffectAtOnce(engine: StoreEngine) async throws {
        try await withTenants(engine) { api, store, a, b in
            let secret = try await Self.credential("ops", tenants: [TenantID(rawValue: a)], in: store, api: api)
            let lookupIn = { (tenant: String?) in
                let path = tenant.map { "\(Self.v1Project)/tenants/\($0)/accounts:lookup" } ?? "\(Self.v1Project)/accounts:lookup"
                return try await api.bearer(secret, .post, path, body: #"{"localId":["nobody"]}"#)
            }
            #expect(try await lookupIn(a).status == .ok)
            Self.expectRefused(try await lookupIn(b), "B before")

            let changed = try await AdminCredentialChanges.setTenants(
                name: "ops", tenants: [TenantID(rawValue: b), .default], in: store, now: api.clock.now())
            #expect(changed?.tenants == [.default, TenantID(rawValue: b)])
            #expect(try await lookupIn(b).status == .ok, "B from the next call")
            #expect(try await lookupIn(nil).status == .ok, "and the project")
            #expect(try await api.bearer(secret, .get, Path.config).status == .ok, "the project's settings with it")
            Self.expectRefused(try await lookupIn(a), "A no more")

            _ = try await AdminCredentialChanges.setTenants(name: "ops", tenants: nil, in: store, now: api.clock.now())
            #expect(try await lookupIn(a).status == .ok)
            #expect(try await api.bearer(secret, .get, TenantTests.tenants).status == .ok, "unlimited, it lists the tenants")
            #expect(try await AdminCredentialChanges.setTenants(name: "nobody", tenants: nil, in: store, now: api.clock.now()) == nil)
            await #expect(throws: AuthError.tenantNotFound) {
                _ = try await AdminCredentialChanges.setTenants(
                    name: "ops", tenants: [TenantID(rawValue: "nobody-abcde")], in: store, now: api.clock.now())
            }

            #expect(try await AdminCredentialChanges.revoke(name: "ops", in: store, now: api.clock.now()))
            #expect(try await lookupIn(a).status == .unauthorized)
            let events = try await api.auditEvents("kind=ADMIN_CREDENTIAL_CHANGED")
            #expect(events.compactMap { $0["detail"]?["step"]?.stringValue } == ["revoked", "tenantsChanged", "tenantsChanged", "created"])
            let created = try #require(events.last?["detail"])
            #expect(created["credential"] == "ops" && created["tenants"] == .array([.string(a)]) && created["project"] == .bool(false))
            #expect(events[1]["detail"]?["tenants"] == "all", "\(events[1])")
            #expect(events[2]["detail"]?["project"] == .bool(true) && events.allSatisfy { $0["actor"] == "cli" }, "\(events[2])")
        }
    }

    @Test("the read scope and a tenant limit combine: a read credential of A reads A only")
    func readScopeCombines() async throws {
        try await withTenants(.sqlite) { api, store, a, b in
            _ = try await api.admin(.post, "\(Self.v1Project)/tenants/\(a)/accounts", body: #"{"localId":"ada"}"#)
            let secret = try await Self.credential("auditor", scope: .read, tenants: [TenantID(rawValue: a)], in: store, api: api)
            let lookup = try await api.bearer(secret, .post, "\(Self.v1Project)/tenants/\(a)/accounts:lookup", body: #"{"localId":["ada"]}"#)
            #expect(lookup["users"]?.arrayValue?.count == 1, "\(lookup.text)")
            Self.expectRefused(
                try await api.bearer(secret, .post, "\(Self.v1Project)/tenants/\(a)/accounts:update", body: #"{"localId":"ada","displayName":"A"}"#),
                "a write in A")
            Self.expectRefused(
                try await api.bearer(secret, .post, "\(Self.v1Project)/tenants/\(b)/accounts:lookup", body: #"{"localId":["ada"]}"#), "a read in B")
        }
    }

    @Test("the audit log lists one tenant's events with tenantId, which a credential limited to that tenant may read", arguments: StoreEngine.all)
    func auditListingPerTenant(engine: StoreEngine) async throws {
        try await withTenants(engine) { api, store, a, b in
            let audit = "/flint/v1/projects/\(project)/auditEvents"
            _ = try await api.admin(.post, "\(Self.v1Project)/tenants/\(a)/accounts", body: #"{"localId":"ada"}"#)
            _ = try await api.admin(.post, "\(Self.v1Project)/tenants/\(b)/accounts", body: #"{"localId":"bob"}"#)
            _ = try await api.admin(.post, "\(Self.v1Project)/accounts", body: #"{"localId":"root"}"#)
            for (tenant, uid) in [(a, "ada"), (b, "bob")] {
                let page = try await api.admin(.get, "\(audit)?tenantId=\(tenant)")
                let events = page["auditEvents"]?.arrayValue ?? []
                #expect(!events.isEmpty, "\(page.text)")
                #expect(events.allSatisfy { $0["detail"]?["tenantId"]?.stringValue == tenant }, "\(page.text)")
                #expect(events.contains { $0["localId"]?.stringValue == uid }, "\(page.text)")
            }
            let everyone = try await api.admin(.get, audit)["auditEvents"]?.arrayValue ?? []
            let uids = Set(everyone.compactMap { event -> String? in event["localId"]?.stringValue })
            #expect(uids.isSuperset(of: ["ada", "bob", "root"]), "\(uids)")
            let unknown = try await api.admin(.get, "\(audit)?tenantId=nobody-abcde")
            #expect(unknown.status == .badRequest && unknown.errorCode == "TENANT_NOT_FOUND", "\(unknown.text)")

            let secret = try await Self.credential("acme-audit", scope: .read, tenants: [TenantID(rawValue: a)], in: store, api: api)
            let own = try await api.bearer(secret, .get, "\(audit)?tenantId=\(a)", body: nil)
            #expect(own.status == .ok && own["auditEvents"]?.arrayValue?.isEmpty == false, "\(own.text)")
            Self.expectRefused(try await api.bearer(secret, .get, "\(audit)?tenantId=\(b)", body: nil), "B's events")
            Self.expectRefused(try await api.bearer(secret, .get, audit, body: nil), "every tenant's events")
        }
    }
}
