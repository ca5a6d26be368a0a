import FlintCore
import FlintServerTestSupport
import FlintStore
import FlintTesting
import Foundation
import HTTPTypes
import Testing

@testable import FlintServer

/// Users in tenants through the API (issue 32): the endpoints that serve tenants run in the tenant the request names,
/// and no credential, code or ID of one tenant reaches another tenant's accounts.
@Suite("Tenants: users in tenants, isolated through the API")
struct TenantUsersTests {
    /// Runs `body` against a node on a fresh `engine` store with two tenants that allow passwords and anonymous users.
    private func withTenants(
        _ engine: StoreEngine, configure: @escaping (inout ServerSettings) -> Void = { _ in },
        _ body: @escaping @Sendable (API, _ a: String, _ b: String) async throws -> Void
    ) async throws {
        let settings: (inout ServerSettings) -> Void = { settings in
            settings.passwordHashParameters = PasswordHashParameters(logN: 10)
            configure(&settings)
        }
        try await engine.serve(try await engine.freshLocation(), configure: settings) { api in
            let open = #","allowPasswordSignup":true,"enableAnonymousUser":true,"enableEmailLinkSignin":true}"#
            let a = try await TenantTests.create(api, #"{"displayName":"tenant-a""# + open)
            let b = try await TenantTests.create(api, #"{"displayName":"tenant-b""# + open)
            try await body(api, a, b)
        }
    }

    /// `fields` with `tenantId` (none for `nil`), as a JSON body.
    static func body(_ fields: [String: String], tenant: String?) throws -> String {
        try API.json(tenant.map { fields.merging(["tenantId": $0]) { $1 } } ?? fields)
    }

    /// The signed-in session of a sign-up in `tenant` (must succeed).
    static func signUp(_ api: API, _ email: String, _ password: String, tenant: String?) async throws -> SignedIn {
        let reply = try await api.postRaw(Path.signUp, try body(["email": email, "password": password], tenant: tenant))
        #expect(reply.status == .ok, "\(reply.text)")
        return try API.signedIn(reply)
    }

    /// `firebase.tenant` of an ID token.
    static func tenant(of idToken: String) throws -> String? {
        try JWT.payload(idToken)["firebase"]?["tenant"]?.stringValue
    }

    @Test("one email in tenants A, B and the default tenant is three accounts, each signing in only in its tenant", arguments: StoreEngine.all)
    func sameEmailThreeAccounts(engine: StoreEngine) async throws {
        try await withTenants(engine) { api, a, b in
            let mine = try await Self.signUp(api, "same@example.com", "default-pass", tenant: nil)
            let inA = try await Self.signUp(api, "same@example.com", "tenant-a-pass", tenant: a)
            let inB = try await Self.signUp(api, "same@example.com", "tenant-b-pass", tenant: b)
            #expect(Set([mine.localId, inA.localId, inB.localId]).count == 3)
            #expect(try Self.tenant(of: mine.idToken) == nil && Self.tenant(of: inA.idToken) == a && Self.tenant(of: inB.idToken) == b)

            let signIn = { (password: String, tenant: String?) in
                try await api.postRaw(Path.passwordSignIn, try Self.body(["email": "same@example.com", "password": password], tenant: tenant))
            }
            #expect(try await signIn("tenant-a-pass", a).string("localId") == inA.localId)
            #expect(try await signIn("tenant-b-pass", a).errorCode == "INVALID_LOGIN_CREDENTIALS", "B's password is not A's")
            #expect(try await signIn("tenant-a-pass", nil).errorCode == "INVALID_LOGIN_CREDENTIALS", "nor the default tenant's")
            #expect(try await signIn("default-pass", nil).string("localId") == mine.localId)
            let again = try await Self.signUp(api, "other@example.com", "x-password", tenant: a)
            let taken = try await api.postRaw(Path.signUp, try Self.body(["email": "same@example.com", "password": "whatever1"], tenant: a))
            #expect(taken.errorCode == "EMAIL_EXISTS" && again.localId != inA.localId, "\(taken.text)")

            let lookup = try await api.postRaw(Path.lookup, try Self.body(["idToken": inA.idToken], tenant: a))
            #expect(
                lookup["users"]?.arrayValue?.first?["tenantId"]?.stringValue == a
                    && lookup["users"]?.arrayValue?.first?["localId"]?.stringValue == inA.localId)
            #expect(try await api.lookup(mine.idToken)["users"]?.arrayValue?.first?["tenantId"] == nil)
        }
    }

    @Test(
        "every client call in tenant A with tenant B's ID token, refresh token or local ID fails, and B's account is untouched",
        arguments: StoreEngine.all)
    func crossTenantCredentialsFail(engine: StoreEngine) async throws {
        try await withTenants(engine) { api, a, b in
            let inB = try await Self.signUp(api, "b@example.com", "tenant-b-pass", tenant: b)
            _ = try await Self.signUp(api, "a@example.com", "tenant-a-pass", tenant: a)
            for (path, fields) in [
                (Path.lookup, ["idToken": inB.idToken]), (Path.update, ["idToken": inB.idToken, "displayName": "taken over"]),
                (Path.delete, ["idToken": inB.idToken]),
                (Path.signUp, ["idToken": inB.idToken, "email": "b@example.com", "password": "new-password"]),
            ] {
                let reply = try await api.postRaw(path, try Self.body(fields, tenant: a))
                #expect(reply.errorCode == "TENANT_ID_MISMATCH", "\(path) in tenant A: \(reply.text)")
            }
            // Naming no tenant, the token's own tenant is the call's (the SDKs send accounts:lookup and accounts:delete
            // with the token alone): B's account, never the default tenant's.
            let unnamed = try await api.postRaw(Path.lookup, try Self.body(["idToken": inB.idToken], tenant: nil))
            #expect(unnamed.status == .ok, "\(unnamed.text)")
            #expect(unnamed["users"]?.arrayValue?.first?["localId"]?.stringValue == inB.localId)
            #expect(unnamed["users"]?.arrayValue?.first?["tenantId"]?.stringValue == b)
            let refresh = try await api.postRaw(
                Path.token, try Self.body(["grant_type": "refresh_token", "refresh_token": inB.refreshToken], tenant: a))
            #expect(refresh.errorMessage == "TENANT_ID_MISMATCH : ((Refresh token tenant ID does not match target tenant ID.))", "\(refresh.text)")
            // Without a tenant named, a refresh token stays in its own tenant.
            let own = try await api.refresh(inB.refreshToken)
            let refreshed = try #require(own.string("id_token"), "\(own.text)")
            #expect(try Self.tenant(of: refreshed) == b)

            // The operator's calls in tenant A never reach B's account by its local ID.
            let lookup = try await api.admin(.post, Path.adminLookup, body: try Self.body(["localId": inB.localId], tenant: a))
            #expect(lookup.status == .ok && lookup["users"] == nil, "\(lookup.text)")
            let update = try await api.admin(.post, Path.adminUpdate, body: try Self.body(["localId": inB.localId, "displayName": "x"], tenant: a))
            #expect(update.errorCode == "USER_NOT_FOUND", "\(update.text)")
            let delete = try await api.admin(
                .post, "\(Path.v1)/projects/\(project)/accounts:delete", body: try Self.body(["localId": inB.localId], tenant: a))
            #expect(delete.errorCode == "USER_NOT_FOUND", "\(delete.text)")

            let still = try await api.postRaw(Path.lookup, try Self.body(["idToken": inB.idToken], tenant: b))
            #expect(
                still["users"]?.arrayValue?.first?["displayName"] == nil && still["users"]?.arrayValue?.first?["email"] == "b@example.com",
                "\(still.text)")
            let byOperator = try await api.admin(.post, Path.adminLookup, body: try Self.body(["localId": inB.localId], tenant: b))
            #expect(byOperator["users"]?.arrayValue?.first?["tenantId"]?.stringValue == b, "\(byOperator.text)")
        }
    }

    @Test("a custom token signs into the tenant it names, only when the request names the same tenant")
    func customTokens() async throws {
        try await withTenants(.sqlite) { api, a, b in
            func token(_ uid: String, tenant: String?) -> String {
                var payload: [String: JSONValue] = ["aud": .string(CustomToken.audience), "uid": .string(uid)]
                if let tenant { payload["tenant_id"] = .string(tenant) }
                return CustomToken.unsigned(payload: payload)
            }
            func signIn(_ token: String, tenant: String?) async throws -> Reply {
                try await api.postRaw(Path.customTokenV1, try Self.body(["token": token], tenant: tenant))
            }
            let inA = try await signIn(token("shared-uid", tenant: a), tenant: a)
            let inAToken = try #require(inA.string("idToken"), "\(inA.text)")
            #expect(try Self.tenant(of: inAToken) == a)
            let mine = try await signIn(token("shared-uid", tenant: nil), tenant: nil)
            #expect(mine["isNewUser"] == .bool(true), "the default tenant's shared-uid is another account: \(mine.text)")
            #expect(try await signIn(token("u", tenant: b), tenant: a).errorCode == "TENANT_ID_MISMATCH")
            #expect(try await signIn(token("u", tenant: a), tenant: nil).errorCode == "TENANT_ID_MISMATCH")
            #expect(try await signIn(token("u", tenant: nil), tenant: a).errorCode == "TENANT_ID_MISMATCH")
        }
    }

    @Test("a tenant's switches hold: disableAuth, password sign-up and sign-in, anonymous users; phone sign-in is not a tenant's")
    func switches() async throws {
        try await withFlint { api in
            let closed = try await TenantTests.create(api, #"{"displayName":"closed"}"#)
            let disabled = try await TenantTests.create(api, #"{"displayName":"disabled","allowPasswordSignup":true,"disableAuth":true}"#)
            let credentials = ["email": "c@example.com", "password": "secret-1"]
            #expect(try await api.postRaw(Path.signUp, try Self.body(credentials, tenant: closed)).errorCode == "OPERATION_NOT_ALLOWED")
            #expect(try await api.postRaw(Path.passwordSignIn, try Self.body(credentials, tenant: closed)).errorCode == "PASSWORD_LOGIN_DISABLED")
            #expect(try await api.postRaw(Path.signUp, try Self.body([:], tenant: closed)).errorCode == "ADMIN_ONLY_OPERATION")
            for path in [Path.signUp, Path.passwordSignIn, Path.send] {
                #expect(try await api.postRaw(path, try Self.body(credentials, tenant: disabled)).errorCode == "PROJECT_DISABLED", "\(path)")
            }
            let phone = try await api.postRaw(Path.send, try Self.body(["phoneNumber": "+15555550100"], tenant: closed))
            #expect(phone.errorCode == "UNSUPPORTED_TENANT_OPERATION", "\(phone.text)")
            #expect(try await api.postRaw(Path.signUp, try Self.body(credentials, tenant: "nobody-1")).errorCode == "TENANT_NOT_FOUND")
            // The project's own switches are unchanged by a tenant's.
            #expect(try await api.post(Path.signUp, credentials).status == .ok)
        }
    }

    @Test("a refresh naming no tenant is refused while its token's tenant has disableAuth on, and once the tenant is deleted")
    func refreshInClosedTenant() async throws {
        try await withTenants(.sqlite) { api, a, b in
            let inA = try await Self.signUp(api, "r@example.com", "tenant-a-pass", tenant: a)
            let inB = try await Self.signUp(api, "r@example.com", "tenant-b-pass", tenant: b)
            #expect(try await api.refresh(inA.refreshToken).status == .ok)
            let patched = try await api.admin(.patch, "\(TenantTests.tenants)/\(a)?updateMask=disableAuth", body: #"{"disableAuth":true}"#)
            #expect(patched.status == .ok, "\(patched.text)")
            // The iOS SDK's securetoken call names no tenant: the token's own tenant decides.
            #expect(try await api.refresh(inA.refreshToken).errorCode == "PROJECT_DISABLED")
            let named = try await api.postRaw(
                Path.token, try Self.body(["grant_type": "refresh_token", "refresh_token": inA.refreshToken], tenant: a))
            #expect(named.errorCode == "PROJECT_DISABLED", "\(named.text)")
            #expect(try await api.refresh(inB.refreshToken).status == .ok, "another tenant's sessions go on")
            #expect(try await api.admin(.delete, "\(TenantTests.tenants)/\(b)").status == .ok)
            // A deleted tenant's accounts and sessions go with it.
            let gone = try await api.refresh(inB.refreshToken)
            #expect(gone.errorCode == "USER_NOT_FOUND", "\(gone.text)")
        }
    }

    @Test("a tenant's requests read the project config as it is now: its settings are rebuilt after the project's or the tenant's change")
    func settingsFollowChanges() async throws {
        let configure: (inout ServerSettings) -> Void = { $0.passwordFailuresPerAccount = 1000 }
        try await withTenants(.sqlite, configure: configure) { api, a, _ in
            _ = try await Self.signUp(api, "s@example.com", "tenant-a-pass", tenant: a)
            let wrong = { try await api.postRaw(Path.passwordSignIn, try Self.body(["email": "s@example.com", "password": "guess-1"], tenant: a)) }
            #expect(try await wrong().errorCode == "INVALID_LOGIN_CREDENTIALS", "the tenant's settings are built and kept")
            try await api.patchConfig(#"{"flint":{"accountLockout":{"maxFailures":2,"lockSeconds":60}}}"#, mask: "flint.accountLockout")
            _ = try await wrong()
            _ = try await wrong()
            #expect(try await wrong().errorCode == "TOO_MANY_ATTEMPTS_TRY_LATER", "the project's new lockout holds in the tenant")
            let closed = try await api.admin(
                .patch, "\(TenantTests.tenants)/\(a)?updateMask=allowPasswordSignup", body: #"{"allowPasswordSignup":false}"#)
            #expect(closed.status == .ok, "\(closed.text)")
            let other = try await api.postRaw(Path.passwordSignIn, try Self.body(["email": "o@example.com", "password": "guess-1"], tenant: a))
            #expect(other.errorCode == "PASSWORD_LOGIN_DISABLED", "the tenant's own change holds at once")
        }
    }

    @Test("the account lockout counts and locks an address per tenant", arguments: StoreEngine.all)
    func lockoutPerTenant(engine: StoreEngine) async throws {
        let configure: (inout ServerSettings) -> Void = { $0.passwordFailuresPerAccount = 1000 }
        try await withTenants(engine, configure: configure) { api, a, _ in
            try await api.patchConfig(#"{"flint":{"accountLockout":{"maxFailures":2,"lockSeconds":60}}}"#, mask: "flint.accountLockout")
            _ = try await Self.signUp(api, "lock@example.com", "tenant-a-pass", tenant: a)
            _ = try await Self.signUp(api, "lock@example.com", "default-pass", tenant: nil)
            for _ in 0..<2 {
                let wrong = try await api.postRaw(
                    Path.passwordSignIn, try Self.body(["email": "lock@example.com", "password": "guess-1"], tenant: a))
                #expect(wrong.errorCode == "INVALID_LOGIN_CREDENTIALS")
            }
            let locked = try await api.postRaw(
                Path.passwordSignIn, try Self.body(["email": "lock@example.com", "password": "tenant-a-pass"], tenant: a))
            #expect(locked.errorCode == "TOO_MANY_ATTEMPTS_TRY_LATER", "\(locked.text)")
            #expect(try await api.signInWithPassword("lock@example.com", "default-pass").status == .ok, "the default tenant's address is not locked")
            let events = try await api.auditEvents("kind=ACCOUNT_LOCKED")
            #expect(events.first?["detail"]?["tenantId"]?.stringValue == a, "the audit event names the tenant")
        }
    }

    @Test("audit events of a tenant's request name the tenant, and so do their webhook payloads")
    func auditAndWebhooks() throws {
        let origin = AuditOrigin()
        origin.notes.tenant = TenantID(rawValue: "acme-1a2b3")
        let event = origin.event(.accountCreated, uid: "u1", at: 1_000)
        #expect(event.detail["tenantId"] == "acme-1a2b3")
        #expect(AuditOrigin().event(.accountCreated, uid: "u1", at: 1_000).detail["tenantId"] == nil, "none for the default tenant")
        let body = try JSONValue(parsing: Array(WebhookEvents.payload(.userCreated, event: event).utf8))
        #expect(body["data"]?["tenantId"] == "acme-1a2b3" && body["data"]?["uid"] == "u1")
    }

    @Test("an email link is a tenant's: it names the tenant, signs in there, and its code is refused in any other tenant", arguments: StoreEngine.all)
    func emailLinks(engine: StoreEngine) async throws {
        try await withTenants(engine) { api, a, b in
            let fields = ["requestType": "EMAIL_SIGNIN", "email": "link@example.com", "continueUrl": "https://localhost/finish"]
            // An email link is completed in the app: the SDKs send canHandleCodeInApp, a JSON boolean.
            let request = try Self.body(fields, tenant: a).dropLast() + #","canHandleCodeInApp":true}"#
            let sent = try await api.postRaw(Path.sendOob, String(request))
            #expect(sent.status == .ok, "\(sent.text)")
            let listed = try await api.call(.get, "/emulator/v1/projects/\(project)/tenants/\(a)/oobCodes")["oobCodes"]?.arrayValue ?? []
            let entry = try #require(listed.first { $0["email"]?.stringValue == "link@example.com" }, "\(listed)")
            let code = try #require(entry["oobCode"]?.stringValue)
            let link = try #require(entry["oobLink"]?.stringValue)
            #expect(queryItems(of: link)["tenantId"] == a)
            #expect(try await api.oobCodes().isEmpty, "the project's list holds the default tenant's codes only")
            let call = { (tenant: String?) in
                try await api.postRaw(Path.emailLinkSignIn, try Self.body(["email": "link@example.com", "oobCode": code], tenant: tenant))
            }
            #expect(try await call(b).errorCode == "INVALID_OOB_CODE")
            #expect(try await call(nil).errorCode == "INVALID_OOB_CODE")
            let signedIn = try await call(a)
            let idToken = try #require(signedIn.string("idToken"), "\(signedIn.text)")
            #expect(try Self.tenant(of: idToken) == a)

            // A password reset code of A is refused in the default tenant, and works in A.
            _ = try await Self.signUp(api, "reset@example.com", "old-password", tenant: a)
            let reset = try await api.postRaw(
                Path.sendOob, try Self.body(["requestType": "PASSWORD_RESET", "email": "reset@example.com"], tenant: a))
            #expect(reset.status == .ok, "\(reset.text)")
            let codes = try await api.call(.get, "/emulator/v1/projects/\(project)/tenants/\(a)/oobCodes")["oobCodes"]?.arrayValue ?? []
            let resetCode = try #require(codes.last { $0["email"]?.stringValue == "reset@example.com" }?["oobCode"]?.stringValue)
            let elsewhere = try await api.post(Path.resetPassword, ["oobCode": resetCode, "newPassword": "new-password"])
            #expect(elsewhere.errorCode == "INVALID_OOB_CODE", "\(elsewhere.text)")
            let done = try await api.postRaw(Path.resetPassword, try Self.body(["oobCode": resetCode, "newPassword": "new-password"], tenant: a))
            #expect(done.status == .ok, "\(done.text)")
            let signIn = try await api.postRaw(
                Path.passwordSignIn, try Self.body(["email": "reset@example.com", "password": "new-password"], tenant: a))
            #expect(signIn.status == .ok, "\(signIn.text)")
        }
    }

    @Test("a tenant's email-link and password switches are apart: links without passwords, passwords without links")
    func emailSwitchesApart() async throws {
        try await withTenants(.sqlite) { api, _, _ in
            let linksOnly = try await TenantTests.create(api, #"{"displayName":"links-only","enableEmailLinkSignin":true}"#)
            let passwordsOnly = try await TenantTests.create(api, #"{"displayName":"passwords-only","allowPasswordSignup":true}"#)
            let send = { (tenant: String) in
                let fields = ["requestType": "EMAIL_SIGNIN", "email": "apart@example.com", "continueUrl": "https://localhost/finish"]
                return try await api.postRaw(Path.sendOob, String(try Self.body(fields, tenant: tenant).dropLast() + #","canHandleCodeInApp":true}"#))
            }
            let credentials = ["email": "apart@example.com", "password": "secret-1"]

            #expect(try await send(linksOnly).status == .ok)
            let listed = try await api.call(.get, "/emulator/v1/projects/\(project)/tenants/\(linksOnly)/oobCodes")["oobCodes"]?.arrayValue ?? []
            let code = try #require(listed.first?["oobCode"]?.stringValue, "\(listed)")
            let signedIn = try await api.postRaw(
                Path.emailLinkSignIn, try Self.body(["email": "apart@example.com", "oobCode": code], tenant: linksOnly))
            #expect(signedIn.status == .ok, "\(signedIn.text)")
            #expect(try await api.postRaw(Path.signUp, try Self.body(credentials, tenant: linksOnly)).errorCode == "OPERATION_NOT_ALLOWED")
            #expect(try await api.postRaw(Path.passwordSignIn, try Self.body(credentials, tenant: linksOnly)).errorCode == "PASSWORD_LOGIN_DISABLED")

            #expect(try await send(passwordsOnly).errorCode == "OPERATION_NOT_ALLOWED")
            #expect(try await api.postRaw(Path.signUp, try Self.body(credentials, tenant: passwordsOnly)).status == .ok)
        }
    }

    @Test("a tenant user's sessions per device and account lock: the owner's calls run in the ID token's tenant, the operator's in the named one")
    func sessionsAndLocksInTenant() async throws {
        let configure: (inout ServerSettings) -> Void = { $0.passwordFailuresPerAccount = 1000 }
        try await withTenants(.sqlite, configure: configure) { api, a, b in
            try await api.patchConfig(#"{"flint":{"accountLockout":{"maxFailures":2,"lockSeconds":60}}}"#, mask: "flint.accountLockout")
            let first = try await Self.signUp(api, "dev@example.com", "tenant-a-pass", tenant: a)
            let second = try API.signedIn(
                try await api.postRaw(Path.passwordSignIn, try Self.body(["email": "dev@example.com", "password": "tenant-a-pass"], tenant: a)))
            // The owner's calls carry the ID token alone, as FlintAuth sends them.
            let listed = try await api.post(DeviceSessionsTests.ownList, ["idToken": second.idToken])
            #expect(listed.status == .ok && listed["sessions"]?.arrayValue?.count == 2, "\(listed.text)")
            let wrongTenant = try await api.postRaw(DeviceSessionsTests.ownList, try Self.body(["idToken": second.idToken], tenant: b))
            #expect(wrongTenant.errorCode == "TENANT_ID_MISMATCH", "\(wrongTenant.text)")
            let ended = try await api.post(DeviceSessionsTests.ownEndOthers, ["idToken": second.idToken])
            #expect(ended["endedCount"] == .number(1), "\(ended.text)")
            #expect(try await api.refresh(first.refreshToken).errorCode == "TOKEN_EXPIRED", "the other session ended")

            let sessions = "/flint/v1/projects/\(project)/accounts/\(first.localId)/sessions"
            #expect(try await api.admin(.get, "\(sessions)?tenantId=\(a)")["sessions"]?.arrayValue?.count == 1)
            #expect(try await api.admin(.get, sessions).errorMessage == "USER_NOT_FOUND", "not in the default tenant")
            #expect(try await api.admin(.get, "\(sessions)?tenantId=\(b)").errorMessage == "USER_NOT_FOUND", "not in tenant B")

            let lock = "/flint/v1/projects/\(project)/accounts/\(first.localId)/lock"
            for _ in 0..<2 {
                _ = try await api.postRaw(Path.passwordSignIn, try Self.body(["email": "dev@example.com", "password": "guess-1"], tenant: a))
            }
            #expect(try await api.admin(.get, "\(lock)?tenantId=\(a)")["locked"] == .bool(true))
            #expect(try await api.admin(.get, lock).errorMessage == "USER_NOT_FOUND")
            #expect(try await api.admin(.delete, "\(lock)?tenantId=\(a)")["locked"] == .bool(true))
            let back = try await api.postRaw(
                Path.passwordSignIn, try Self.body(["email": "dev@example.com", "password": "tenant-a-pass"], tenant: a))
            #expect(back.status == .ok, "lifted: \(back.text)")
        }
    }

    @Test("the Admin SDKs' tenant paths create, list, query and delete only the tenant's users", arguments: StoreEngine.all)
    func operatorTenantPaths(engine: StoreEngine) async throws {
        try await withTenants(engine) { api, a, b in
            let base = { (tenant: String) in "\(Path.v1)/projects/\(project)/tenants/\(tenant)" }
            for (tenant, id) in [(a, "user-a"), (b, "user-b")] {
                let created = try await api.admin(.post, "\(base(tenant))/accounts", body: #"{"localId":"\#(id)","email":"op@example.com"}"#)
                #expect(created.status == .ok, "\(created.text)")
            }
            let mine = try await api.admin(.post, Path.adminCreate, body: #"{"localId":"user-a","email":"op@example.com"}"#)
            #expect(mine.status == .ok, "the same ID and email in the default tenant is a third account: \(mine.text)")

            let listed = try await api.admin(.get, "\(base(a))/accounts:batchGet?maxResults=100")
            #expect(listed["users"]?.arrayValue?.compactMap { $0["localId"]?.stringValue } == ["user-a"], "\(listed.text)")
            let queried = try await api.admin(.post, "\(base(a))/accounts:query", body: #"{"returnUserInfo":true}"#)
            #expect(queried.string("recordsCount") == "1", "\(queried.text)")
            let lookup = try await api.admin(.post, "\(base(a))/accounts:lookup", body: #"{"localId":["user-b"]}"#)
            #expect(lookup["users"] == nil, "\(lookup.text)")
            let mismatch = try await api.admin(.post, "\(base(a))/accounts:lookup", body: #"{"localId":["user-a"],"tenantId":"\#(b)"}"#)
            #expect(mismatch.errorCode == "TENANT_ID_MISMATCH", "\(mismatch.text)")
            let deleted = try await api.admin(.post, "\(base(a))/accounts:batchDelete", body: #"{"localIds":["user-a","user-b"],"force":true}"#)
            #expect(deleted.status == .ok, "\(deleted.text)")
            let inB = try await api.admin(.post, "\(base(b))/accounts:lookup", body: #"{"localId":["user-b"]}"#)
            #expect(inB["users"]?.arrayValue?.first?["tenantId"]?.stringValue == b, "B's user outlives A's batch delete: \(inB.text)")
            let inDefault = try await api.admin(.post, Path.adminLookup, body: #"{"localId":["user-a"]}"#)
            #expect(inDefault["users"]?.arrayValue?.count == 1, "\(inDefault.text)")
            #expect(try await api.admin(.get, "\(base(a))/accounts:batchGet")["users"]?.arrayValue?.isEmpty ?? true)

            let wiped = try await api.call(.delete, "/emulator/v1/projects/\(project)/tenants/\(b)/accounts")
            #expect(wiped.status == .ok)
            #expect(try await api.admin(.post, "\(base(b))/accounts:lookup", body: #"{"localId":["user-b"]}"#)["users"] == nil)
            #expect(
                try await api.admin(.post, Path.adminLookup, body: #"{"localId":["user-a"]}"#)["users"] != nil,
                "the emulator's wipe of B kept the default tenant")
        }
    }
}
