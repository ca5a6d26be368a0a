import FlintCore
import FlintServerTestSupport
import FlintStore
import FlintTesting
import Foundation
import HTTPTypes
import Testing

@testable import FlintServer

@Suite("Tenants: the v2/projects/{p}/tenants resources, and requests naming a tenant")
struct TenantTests {
    @Test("the body scan for a tenant finds the word anywhere, across a false start, and nowhere it is not")
    func bodyScan() {
        func found(_ text: String) -> Bool {
            Array(text.utf8).withUnsafeBytes { TenantMiddleware.contains(Array("tenant".utf8), in: $0) }
        }
        #expect(found("tenant") && found(#"{"tenantId":"t-1"}"#) && found(#"{"a":1,"tenant_id":"x"}"#) && found("tenatenant"))
        #expect(!found("") && !found("tenan") && !found("grant_type=refresh_token&refresh_token=AMf-vBw") && !found("Tenant"))
    }

    static let tenants = "/identitytoolkit.googleapis.com/v2/projects/\(project)/tenants"

    /// Creates a tenant and answers its ID.
    static func create(_ api: API, _ body: String) async throws -> String {
        let reply = try await api.admin(.post, tenants, body: body)
        #expect(reply.status == .ok, "\(reply.text)")
        return try #require(reply.string("name")?.split(separator: "/").last.map(String.init))
    }

    @Test("deleting a tenant deletes its users in the same transaction, counted in its audit event; the default tenant's stay")
    func deletingATenantDeletesItsUsers() async throws {
        let node = try await TestNode.make()
        try await node.run { api in
            let id = try await Self.create(api, #"{"displayName":"doomed"}"#)
            let tenant = TenantID(rawValue: id)
            try await node.store.write { tx in
                for (tenant, localID) in [(tenant, "t1"), (tenant, "t2"), (.default, "t1")] {
                    var user = UserRecord(tenant: tenant, localID: localID, createdAt: 1, validSince: Instant(secondsSince1970: 1))
                    user.email = "\(localID)@example.com"
                    try await tx.insertUser(user)
                }
            }
            #expect(try await api.admin(.delete, "\(Self.tenants)/\(id)").status == .ok)
            #expect(try await node.store.read { try await $0.userCount(tenant: tenant) } == 0)
            #expect(try await node.store.read { try await $0.user(tenant: .default, localID: "t1") }?.email == "t1@example.com")
            let audit = try await api.admin(.get, "/flint/v1/projects/\(project)/auditEvents?kind=CONFIG_CHANGED")
            let deletion = audit["auditEvents"]?.arrayValue?.first {
                $0["detail"]?["tenant"]?.stringValue == id && $0["detail"]?["deleted"] == .bool(true)
            }
            #expect(deletion?["detail"]?["usersDeleted"] == .number(2), "\(audit.text)")
        }
    }

    @Test("a tenant is created with a server-made ID, read, patched with updateMask and deleted, as the Admin SDKs call it")
    func lifecycle() async throws {
        try await withFlint { api in
            let created = try await api.admin(
                .post, Self.tenants, body: #"{"displayName":"admin-python-tenant","allowPasswordSignup":true,"enableEmailLinkSignin":true}"#)
            #expect(created.status == .ok, "\(created.text)")
            let name = try #require(created.string("name"))
            let id = String(name.split(separator: "/").last ?? "")
            #expect(name == "projects/\(project)/tenants/\(id)")
            #expect(id.hasPrefix("admin-python-tenant-") && id.count == "admin-python-tenant-".count + 5, "\(id)")
            #expect(id.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" })
            #expect(created["allowPasswordSignup"] == .bool(true) && created.string("displayName") == "admin-python-tenant")

            let read = try await api.admin(.get, "\(Self.tenants)/\(id)")
            #expect(read.json == created.json)

            // The Python SDK's update: every field it sends, named in the mask.
            let patched = try await api.admin(
                .patch, "\(Self.tenants)/\(id)?updateMask=displayName,allowPasswordSignup,enableEmailLinkSignin",
                body: #"{"displayName":"updated-py-tenant","allowPasswordSignup":false,"enableEmailLinkSignin":false}"#)
            #expect(patched.status == .ok, "\(patched.text)")
            #expect(patched.string("displayName") == "updated-py-tenant" && patched["allowPasswordSignup"] == .bool(false))
            #expect(patched.string("name") == name, "the ID stays")

            // A masked path the body lacks is cleared; one the mask does not name is kept; a nested path reaches inside.
            _ = try await api.admin(
                .patch, "\(Self.tenants)/\(id)?updateMask=mfaConfig", body: #"{"mfaConfig":{"state":"ENABLED","enabledProviders":["PHONE_SMS"]}}"#)
            let nested = try await api.admin(
                .patch, "\(Self.tenants)/\(id)?updateMask=mfaConfig.state,enableEmailLinkSignin", body: #"{"mfaConfig":{"state":"DISABLED"}}"#)
            #expect(nested.status == .ok, "\(nested.text)")
            #expect(nested["mfaConfig"]?["state"] == "DISABLED" && nested["mfaConfig"]?["enabledProviders"] == .array(["PHONE_SMS"]))
            #expect(nested["enableEmailLinkSignin"] == nil, "named in the mask, absent from the body: cleared")
            #expect(nested["allowPasswordSignup"] == .bool(false), "not named: kept")
            // Without a mask, the fields sent are taken whole.
            let unmasked = try await api.admin(
                .patch, "\(Self.tenants)/\(id)", body: #"{"disableAuth":true,"testPhoneNumbers":{"+1 650-555-1234":"123456"}}"#)
            #expect(unmasked["disableAuth"] == .bool(true) && unmasked.string("displayName") == "updated-py-tenant", "\(unmasked.text)")
            #expect(unmasked["testPhoneNumbers"] == .object(["+16505551234": "123456"]), "test numbers are stored as E.164")

            let deleted = try await api.admin(.delete, "\(Self.tenants)/\(id)")
            #expect(deleted.status == .ok && deleted.json == .object([:]), "\(deleted.text)")
            let gone = try await api.admin(.get, "\(Self.tenants)/\(id)")
            #expect(gone.errorCode == "TENANT_NOT_FOUND", "\(gone.text)")
            #expect(try await api.admin(.delete, "\(Self.tenants)/\(id)").errorCode == "TENANT_NOT_FOUND")
            // Each change is audited as a config change naming the tenant.
            let audit = try await api.admin(.get, "/flint/v1/projects/\(project)/auditEvents?kind=CONFIG_CHANGED")
            let named = audit["auditEvents"]?.arrayValue?.filter { $0["detail"]?["tenant"]?.stringValue == id }
            #expect(named?.count == 6, "\(audit.text)")
        }
    }

    @Test(
        "bad tenants and requests are refused with Identity Platform's errors",
        arguments: [
            (HTTPRequest.Method.post, "", #"{"allowPasswordSignup":true}"#, "MISSING_DISPLAY_NAME"),
            (.post, "", #"{"displayName":"abc"}"#, "INVALID_DISPLAY_NAME"),
            (.post, "", #"{"displayName":"1abcd"}"#, "INVALID_DISPLAY_NAME"),
            (.post, "", #"{"displayName":"has_underscore"}"#, "INVALID_DISPLAY_NAME"),
            (.post, "", #"{"displayName":"abcdefghijklmnopqrstu"}"#, "INVALID_DISPLAY_NAME"),
            (.post, "", #"{"displayName":"Acme","disableAuth":"yes"}"#, "INVALID_ARGUMENT"),
            (.post, "", #"{"displayName":"Acme","mfaConfig":{"state":"SOMETIMES"}}"#, "INVALID_CONFIG"),
            (.post, "", #"{"displayName":"Acme","testPhoneNumbers":{"+1":"123456"}}"#, "INVALID_CONFIG"),
            (.get, "/a_b", "", "INVALID_TENANT_ID"),
            (.get, "/nobody-12345", "", "TENANT_NOT_FOUND"),
            (.patch, "/nobody-12345?updateMask=displayName", #"{"displayName":"Acme"}"#, "TENANT_NOT_FOUND"),
            (.get, "?pageToken=a_b", "", "INVALID_PAGE_SELECTION"),
            (.get, "?pageSize=-1", "", "INVALID_ARGUMENT"),
        ])
    func refusals(_ method: HTTPRequest.Method, _ suffix: String, _ body: String, _ code: String) async throws {
        try await withFlint { api in
            let reply = try await api.admin(method, Self.tenants + suffix, body: body.isEmpty ? nil : body)
            #expect(reply.status == .badRequest && reply.errorCode == code, "\(reply.text)")
        }
    }

    @Test("a mask outside the tenant's fields, another project and a client's key are refused")
    func otherRefusals() async throws {
        try await withFlint { api in
            let id = try await Self.create(api, #"{"displayName":"Acme"}"#)
            let mask = try await api.admin(.patch, "\(Self.tenants)/\(id)?updateMask=signIn", body: #"{"signIn":{}}"#)
            #expect(mask.errorCode == "INVALID_ARGUMENT" && mask.errorMessage?.contains("signIn") == true, "\(mask.text)")
            let other = try await api.admin(.get, "/identitytoolkit.googleapis.com/v2/projects/elsewhere/tenants")
            #expect(other.errorCode == "INVALID_PROJECT_ID", "\(other.text)")
            let client = try await api.call(.get, API.keyed(Self.tenants))
            #expect(client.status != .ok, "\(client.text)")
            let renamed = try await api.admin(.patch, "\(Self.tenants)/\(id)?updateMask=displayName", body: "{}")
            #expect(renamed.errorCode == "MISSING_DISPLAY_NAME", "a tenant keeps a display name: \(renamed.text)")
        }
    }

    @Test("many tenants list in ID order, in pages of pageSize (20 without it), each once")
    func paging() async throws {
        try await withFlint { api in
            var made: [String] = []
            for i in 0..<45 { made.append(try await Self.create(api, #"{"displayName":"tenant-\#(i)"}"#)) }
            let first = try await api.admin(.get, Self.tenants)
            #expect(first["tenants"]?.arrayValue?.count == 20 && first.string("nextPageToken") != nil)
            var listed: [String] = []
            var token: String?
            repeat {
                let page = try await api.admin(.get, "\(Self.tenants)?pageSize=16" + (token.map { "&pageToken=\($0)" } ?? ""))
                #expect(page.status == .ok, "\(page.text)")
                listed += page["tenants"]?.arrayValue?.compactMap { $0["name"]?.stringValue?.split(separator: "/").last.map(String.init) } ?? []
                token = page.string("nextPageToken")
            } while token != nil
            #expect(listed == made.sorted())
        }
    }

    @Test("a known tenant's password policy and reCAPTCHA config are served; an unknown tenant's are TENANT_NOT_FOUND")
    func tenantReads() async throws {
        try await withFlint { api in
            let policy = #"{"passwordPolicyEnforcementState":"ENFORCE","passwordPolicyVersions":[{"customStrengthOptions":{"minPasswordLength":9}}]}"#
            let id = try await Self.create(api, #"{"displayName":"Acme","passwordPolicyConfig":\#(policy)}"#)
            let served = try await api.call(.get, API.keyed("/identitytoolkit.googleapis.com/v2/passwordPolicy?tenantId=\(id)"))
            #expect(served["enforcementState"] == "ENFORCE" && served["customStrengthOptions"]?["minPasswordLength"] == .number(9), "\(served.text)")
            let project = try await api.call(.get, API.keyed("/identitytoolkit.googleapis.com/v2/passwordPolicy"))
            #expect(project["enforcementState"] == "OFF", "the project's own policy is unchanged")
            let recaptcha = try await api.call(
                .get,
                API.keyed("/identitytoolkit.googleapis.com/v2/recaptchaConfig?clientType=CLIENT_TYPE_WEB&version=RECAPTCHA_ENTERPRISE&tenantId=\(id)")
            )
            #expect(recaptcha.status == .ok, "\(recaptcha.text)")
            // A change reaches the node's cached copy at once.
            _ = try await api.admin(
                .patch, "\(Self.tenants)/\(id)?updateMask=passwordPolicyConfig.passwordPolicyEnforcementState",
                body: #"{"passwordPolicyConfig":{"passwordPolicyEnforcementState":"OFF"}}"#)
            let changed = try await api.call(.get, API.keyed("/identitytoolkit.googleapis.com/v2/passwordPolicy?tenantId=\(id)"))
            #expect(changed["enforcementState"] == "OFF", "\(changed.text)")
            _ = try await api.admin(.delete, "\(Self.tenants)/\(id)")
            for path in [
                "/identitytoolkit.googleapis.com/v2/passwordPolicy?tenantId=\(id)",
                "/identitytoolkit.googleapis.com/v2/recaptchaConfig?clientType=CLIENT_TYPE_WEB&version=RECAPTCHA_ENTERPRISE&tenantId=\(id)",
            ] {
                let reply = try await api.call(.get, API.keyed(path))
                #expect(reply.errorCode == "TENANT_NOT_FOUND", "a deleted tenant is forgotten: \(reply.text)")
            }
        }
    }

    @Test("a request naming a tenant on an endpoint that does not serve tenants is refused, never answered from the project's users")
    func tenantUsersRefused() async throws {
        try await withFlint { api in
            let id = try await Self.create(api, #"{"displayName":"Acme","allowPasswordSignup":true,"enableEmailLinkSignin":true}"#)
            let owner = try await api.post(
                "\(Path.v1)/accounts:signUp", ["email": "a@example.com", "password": "secret1", "returnSecureToken": "true"])
            #expect(owner.status == .ok, "\(owner.text)")
            // Second factors are: the tenant's own mfaConfig (none here) answers, not the project's.
            let start = try await api.postRaw(
                "/identitytoolkit.googleapis.com/v2/accounts/mfaEnrollment:start",
                #"{"idToken":"x","phoneEnrollmentInfo":{"phoneNumber":"+15555550100"},"tenantId":"\#(id)"}"#)
            #expect(start.errorMessage == "OPERATION_NOT_ALLOWED : SMS based MFA not enabled.", "\(start.text)")
            let unknown = try await api.postRaw(
                "\(Path.v1)/accounts:signInWithPassword", #"{"email":"a@example.com","password":"secret1","tenantId":"nobody-1"}"#)
            #expect(unknown.errorCode == "TENANT_NOT_FOUND", "\(unknown.text)")
            let download = try await api.admin(
                .post, "/www.googleapis.com/identitytoolkit/v3/relyingparty/downloadAccount", body: #"{"tenantId":"\#(id)"}"#)
            #expect(download.errorCode == "UNSUPPORTED_TENANT_OPERATION", "the operator's calls too: \(download.text)")
            let projectConfig = try await api.call(.get, API.keyed("\(Path.v1)/projects?tenantId=\(id)"))
            #expect(projectConfig.errorCode == "UNSUPPORTED_TENANT_OPERATION", "as the emulator answers getProjectConfig: \(projectConfig.text)")
            let empty = try await api.postRaw(
                "\(Path.v1)/accounts:signInWithPassword", #"{"email":"a@example.com","password":"secret1","tenantId":""}"#)
            #expect(empty.status == .ok, "an empty tenantId is the project: \(empty.text)")
            let inTenant = try await api.postRaw(
                "\(Path.v1)/accounts:signInWithPassword", #"{"email":"a@example.com","password":"secret1","tenantId":"\#(id)"}"#)
            #expect(inTenant.errorCode == "INVALID_LOGIN_CREDENTIALS", "the tenant has no such user: \(inTenant.text)")
        }
    }
}
