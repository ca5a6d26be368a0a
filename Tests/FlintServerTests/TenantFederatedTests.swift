import FlintCore
import FlintSAMLTestSupport
import FlintServerTestSupport
import FlintTesting
import Foundation
import HTTPTypes
import Testing

@testable import FlintServer

extension API {
    /// A tenant's provider resource: an `oidc.*` one in its `oauthIdpConfigs`, a built-in one in its
    /// `defaultSupportedIdpConfigs`.
    func configureTenantIdp(_ tenant: String, _ id: String, _ resource: JSONValue) async throws {
        let base = "\(TenantTests.tenants)/\(tenant)"
        let path = id.hasPrefix("oidc.") ? "\(base)/oauthIdpConfigs?oauthIdpConfigId=\(id)" : "\(base)/defaultSupportedIdpConfigs?idpId=\(id)"
        let reply = try await admin(.post, path, body: String(decoding: resource.serialized(), as: UTF8.self))
        #expect(reply.status == .ok, "tenant IdP config create failed: \(reply.text)")
    }

    /// `saml.corp` in `tenant`, trusting the test IdP, as ``configureSAML(_:certificates:)`` configures the project's.
    func configureTenantSAML(_ tenant: String) async throws {
        let resource = SAMLFixture.resource(
            idpEntityID: ResponseTemplate.idpEntityID, ssoURL: SAMLSide.ssoURL, certificates: [try TestKey.idp.get().certificatePEM],
            spEntityID: SAMLSide.spEntityID, callbackURI: SAMLSide.acs)
        let reply = try await admin(
            .post, "\(TenantTests.tenants)/\(tenant)/inboundSamlConfigs?inboundSamlConfigId=saml.corp", body: SAMLFixture.body(resource))
        #expect(reply.status == .ok, "tenant SAML config create failed: \(reply.text)")
    }

    /// `signInWithIdp` with a `postBody` made of `fields`, naming `tenant` (none for `nil`), linking to `idToken`'s account.
    func signInWithIdp(_ fields: [(String, String)], tenant: String?, idToken: String? = nil) async throws -> Reply {
        var body: [String: JSONValue] = [
            "requestUri": "http://localhost", "postBody": .string(URLQuery.encode(fields)), "returnSecureToken": true, "returnIdpCredential": true,
        ]
        if let tenant { body["tenantId"] = .string(tenant) }
        if let idToken { body["idToken"] = .string(idToken) }
        return try await postRaw(Path.signInWithIdp, String(decoding: JSONValue.object(body).serialized(), as: UTF8.self))
    }
}

@Suite("Federated sign-in in tenants: each tenant's own providers, accounts and sign-ins")
struct TenantFederatedTests {
    /// Tenants A and B on `engine`, each with its own `oidc.corp` (the stand-in issuer, through a client of its own:
    /// `a-client`, `b-client`), the project with none, and the project's iOS app.
    func withTenantProviders(
        _ engine: StoreEngine, _ body: @escaping @Sendable (API, StandInIssuer, _ a: String, _ b: String) async throws -> Void
    ) async throws {
        let issuer = try StandInIssuer()
        try await issuer.serve {
            let fast: (inout ServerSettings) -> Void = { $0.passwordHashParameters = PasswordHashParameters(logN: 10) }
            try await engine.serve(try await engine.freshLocation(), configure: fast) { api in
                issuer.follow(api.clock)
                let open = #","allowPasswordSignup":true,"enableAnonymousUser":true}"#
                let a = try await TenantTests.create(api, #"{"displayName":"tenant-a""# + open)
                let b = try await TenantTests.create(api, #"{"displayName":"tenant-b""# + open)
                for (tenant, client) in [(a, "a-client"), (b, "b-client")] {
                    try await api.configureTenantIdp(
                        tenant, "oidc.corp",
                        ["enabled": true, "clientId": .string(client), "clientSecret": "s3cret", "issuer": .string(issuer.issuer)])
                }
                try await api.allowApp()
                try await body(api, issuer, a, b)
            }
        }
    }

    /// An app's own sign-in in `tenant`: `signInWithIdp` with the stand-in's ID token of `provider` for the client `aud`,
    /// bound to `nonce`, linking to `idToken`'s account when given.
    static func appSignIn(
        _ api: API, _ issuer: StandInIssuer, provider: String = "oidc.corp", aud: String, nonce: String, tenant: String?, idToken: String? = nil,
        sub: String = "emp-9", email: String = "lin@corp.example", verified: Bool = true
    ) async throws -> Reply {
        let now = issuer.now.secondsSince1970
        let token = try issuer.token([
            "iss": .string(issuer.issuer), "aud": .string(aud), "sub": .string(sub), "iat": .number(Double(now)), "exp": .number(Double(now + 300)),
            "nonce": .string(nonce), "email": .string(email), "email_verified": .bool(verified),
        ])
        return try await api.signInWithIdp([("providerId", provider), ("id_token", token), ("nonce", nonce)], tenant: tenant, idToken: idToken)
    }

    /// The `firebase.tenant` of an answer's ID token (`nil` without one).
    static func tenant(of reply: Reply) -> String? {
        guard let token = reply.string("idToken"), let claims = try? JWT.payload(token) else { return nil }
        return claims["firebase"]?["tenant"]?.stringValue
    }

    @Test(
        "a handler sign-in runs in the tenant its start names: that tenant's client, a state no other tenant completes, an account per tenant",
        arguments: StoreEngine.all)
    func redirectInTenants(engine: StoreEngine) async throws {
        try await withTenantProviders(engine) { api, issuer, a, b in
            let start = try await api.handler(API.redirectQuery("oidc.corp", sessionID: "session-a", ["tid": a]))
            #expect(start.status == .seeOther, "\(start.text)")
            #expect(queryItems(of: try #require(start.headers[.location]))["client_id"] == "a-client")
            let visit = try await ProviderBrowser.visit(try #require(start.headers[.location]))
            let callbackA = try RedirectCallback(try await api.call(.get, try #require(visit.handlerPath)))
            // A's sign-in completed in B, or with no tenant, is refused before its code is used.
            for other in [b, nil] {
                let refused = try await api.completeRedirect(link: callbackA.link, sessionID: "session-a", tenantID: other)
                #expect(refused.errorCode == "INVALID_IDP_RESPONSE" && refused.errorMessage?.contains("another tenant") == true, "\(refused.text)")
            }
            let inA = try await api.completeRedirect(link: callbackA.link, sessionID: "session-a", tenantID: a)
            #expect(inA.status == .ok && inA["isNewUser"] == .bool(true) && inA.string("federatedId") == "emp-9", "\(inA.text)")
            #expect(Self.tenant(of: inA) == a)
            // The same person at the same provider, in B: B's client, another account.
            let callbackB = try RedirectCallback(try await api.redirectSignIn("oidc.corp", sessionID: "session-b", ["tid": b]))
            #expect(issuer.authorizeRequests.last?["client_id"] == "b-client")
            let inB = try await api.completeRedirect(link: callbackB.link, sessionID: "session-b", tenantID: b)
            #expect(inB.status == .ok && inB["isNewUser"] == .bool(true), "\(inB.text)")
            #expect(inB.string("localId") != inA.string("localId") && Self.tenant(of: inB) == b)
            // Again in A: A's account.
            let again = try RedirectCallback(try await api.redirectSignIn("oidc.corp", sessionID: "session-a2", ["tid": a]))
            let inA2 = try await api.completeRedirect(link: again.link, sessionID: "session-a2", tenantID: a)
            #expect(inA2.string("localId") == inA.string("localId") && inA2["isNewUser"] == .bool(false), "\(inA2.text)")
            // The project has no such provider, and got no account.
            let unknown = try await api.handler(API.redirectQuery("oidc.corp", sessionID: "s"))
            #expect(unknown.status == .badRequest && unknown.text.contains("not configured"), "\(unknown.text)")
            let users = try await api.admin(.get, "\(Path.v1)/projects/\(project)/accounts:batchGet?maxResults=10")
            #expect(users.status == .ok && users["users"] == nil, "\(users.text)")
        }
    }

    @Test("createAuthUri in a tenant: the tenant's client, and signInWithIdp completes its callback in that tenant only")
    func createAuthURIInTenant() async throws {
        try await withTenantProviders(.sqlite) { api, _, a, b in
            let started = try await api.postRaw(
                Path.createAuthURI,
                try TenantUsersTests.body(["providerId": "oidc.corp", "continueUri": "http://localhost/done", "sessionId": "app-session"], tenant: a))
            #expect(started.status == .ok, "\(started.text)")
            let authURI = try #require(started.string("authUri"))
            #expect(queryItems(of: authURI)["client_id"] == "a-client")
            let back = try #require(try await ProviderBrowser.visit(authURI).handlerPath)
            #expect(back.hasPrefix("/done?code="))
            let link = "http://localhost" + back
            let inB = try await api.completeRedirect(link: link, sessionID: "app-session", providerID: nil, tenantID: b)
            #expect(inB.errorCode == "INVALID_IDP_RESPONSE", "\(inB.text)")
            let inA = try await api.completeRedirect(link: link, sessionID: "app-session", providerID: nil, tenantID: a)
            #expect(inA.status == .ok && Self.tenant(of: inA) == a, "\(inA.text)")
            // The email's sign-in methods are the tenant's accounts'.
            let methods = try await api.postRaw(
                Path.createAuthURI, try TenantUsersTests.body(["identifier": "lin@corp.example", "continueUri": "http://localhost/done"], tenant: a))
            #expect(methods["signinMethods"] == ["oidc.corp"], "\(methods.text)")
            let elsewhere = try await api.postRaw(
                Path.createAuthURI, try TenantUsersTests.body(["identifier": "lin@corp.example", "continueUri": "http://localhost/done"], tenant: b))
            #expect(elsewhere["registered"] == .bool(false), "\(elsewhere.text)")
        }
    }

    @Test("a provider configured only in tenant B is unknown in tenant A and in the project, however the sign-in starts")
    func providerOfAnotherTenant() async throws {
        try await withTenantProviders(.sqlite) { api, issuer, a, b in
            try await api.configureTenantIdp(
                b, "oidc.bonly", ["enabled": true, "clientId": "b-only", "clientSecret": "s", "issuer": .string(issuer.issuer)])
            #expect(try await api.handler(API.redirectQuery("oidc.bonly", sessionID: "s", ["tid": b])).status == .seeOther)
            let page = try await api.handler(API.redirectQuery("oidc.bonly", sessionID: "s", ["tid": a]))
            #expect(page.status == .badRequest && page.text.contains("not configured"), "\(page.text)")
            for (index, tenant) in [a, nil].enumerated() {
                let authURI = try await api.postRaw(
                    Path.createAuthURI,
                    try TenantUsersTests.body(["providerId": "oidc.bonly", "continueUri": "http://localhost/done"], tenant: tenant))
                #expect(authURI.errorCode == "INVALID_PROVIDER_ID", "\(authURI.text)")
                let signIn = try await Self.appSignIn(api, issuer, provider: "oidc.bonly", aud: "b-only", nonce: "elsewhere-\(index)", tenant: tenant)
                #expect(signIn.errorCode == "OPERATION_NOT_ALLOWED", "\(signIn.text)")
            }
            // A's client is not B's: A's token is no credential in B.
            let crossed = try await Self.appSignIn(api, issuer, aud: "a-client", nonce: "x-1", tenant: b)
            #expect(crossed.errorCode == "INVALID_IDP_RESPONSE", "\(crossed.text)")
            let inB = try await Self.appSignIn(api, issuer, provider: "oidc.bonly", aud: "b-only", nonce: "b-1", tenant: b)
            #expect(inB.status == .ok && Self.tenant(of: inB) == b, "\(inB.text)")
        }
    }

    @Test(
        "email matching and linking stay in the tenant; another tenant's ID token or pending token is refused",
        arguments: StoreEngine.all)
    func linkingInTenants(engine: StoreEngine) async throws {
        try await withTenantProviders(engine) { api, issuer, a, b in
            let password = ["email": "lin@corp.example", "password": "tenant-pass", "returnSecureToken": "true"]
            let owner = try await api.postRaw(Path.signUp, try TenantUsersTests.body(password, tenant: a))
            #expect(owner.status == .ok, "\(owner.text)")
            let projectOwner = try await api.post(Path.signUp, password)
            #expect(projectOwner.status == .ok, "\(projectOwner.text)")
            // In B the email is nobody's: a new account. In A the provider's verified email is the A account's.
            let inB = try await Self.appSignIn(api, issuer, aud: "b-client", nonce: "l-1", tenant: b)
            #expect(inB.status == .ok && inB["isNewUser"] == .bool(true), "\(inB.text)")
            let inA = try await Self.appSignIn(api, issuer, aud: "a-client", nonce: "l-2", tenant: a)
            #expect(inA.status == .ok && inA.string("localId") == owner.string("localId"), "\(inA.text)")
            // The project's account with that email is untouched: it still signs in with its password and has no provider.
            let projectSignIn = try await api.post(
                Path.passwordSignIn, ["email": "lin@corp.example", "password": "tenant-pass", "returnSecureToken": "true"])
            #expect(projectSignIn.status == .ok && projectSignIn.string("localId") == projectOwner.string("localId"), "\(projectSignIn.text)")
            #expect(try JWT.payload(try #require(projectSignIn.string("idToken")))["firebase"]?["identities"]?["oidc.corp"] == nil)
            // Linking in A with B's ID token: TENANT_ID_MISMATCH; with A's own (an anonymous user), the identity links.
            let guestB = try await api.postRaw(Path.signUp, try TenantUsersTests.body(["returnSecureToken": "true"], tenant: b))
            let guestA = try await api.postRaw(Path.signUp, try TenantUsersTests.body(["returnSecureToken": "true"], tenant: a))
            let mismatch = try await Self.appSignIn(
                api, issuer, aud: "a-client", nonce: "l-3", tenant: a, idToken: guestB.string("idToken"), sub: "emp-3",
                email: "g@corp.example")
            #expect(mismatch.errorCode == "TENANT_ID_MISMATCH", "\(mismatch.text)")
            let linked = try await Self.appSignIn(
                api, issuer, aud: "a-client", nonce: "l-4", tenant: a, idToken: guestA.string("idToken"), sub: "emp-3",
                email: "g@corp.example")
            #expect(linked.status == .ok && linked.string("localId") == guestA.string("localId"), "\(linked.text)")
            // An unverified email of an A account: needConfirmation with a pending token that stands for it in A only.
            let unverified = try await Self.appSignIn(api, issuer, aud: "a-client", nonce: "l-5", tenant: a, sub: "emp-5", verified: false)
            #expect(unverified["needConfirmation"] == .bool(true), "\(unverified.text)")
            let pending = try #require(unverified.string("pendingToken"))
            for tenant in [b, nil] {
                let elsewhere = try await api.postRaw(
                    Path.signInWithIdp,
                    try API.json([
                        "requestUri": "http://localhost", "pendingToken": pending, "postBody": "providerId=oidc.corp", "tenantId": tenant ?? "",
                    ]))
                #expect(elsewhere.errorCode == "INVALID_PENDING_TOKEN", "\(elsewhere.text)")
            }
        }
    }

    @Test("a tenant whose disableAuth is on refuses federated sign-in however it starts; an unknown tenant is refused too")
    func disabledTenant() async throws {
        try await withTenantProviders(.sqlite) { api, issuer, a, _ in
            let off = try await api.admin(.patch, "\(TenantTests.tenants)/\(a)?updateMask=disableAuth", body: #"{"disableAuth":true}"#)
            #expect(off.status == .ok, "\(off.text)")
            let page = try await api.handler(API.redirectQuery("oidc.corp", sessionID: "s", ["tid": a]))
            #expect(page.status == .badRequest && page.text.contains("disabled"), "\(page.text)")
            let authURI = try await api.postRaw(
                Path.createAuthURI, try TenantUsersTests.body(["providerId": "oidc.corp", "continueUri": "http://localhost/done"], tenant: a))
            #expect(authURI.errorCode == "PROJECT_DISABLED", "\(authURI.text)")
            let signIn = try await Self.appSignIn(api, issuer, aud: "a-client", nonce: "d-1", tenant: a)
            #expect(signIn.errorCode == "PROJECT_DISABLED", "\(signIn.text)")
            let unknown = try await api.signInWithIdp([("providerId", "oidc.corp")], tenant: "nobody-1")
            #expect(unknown.errorCode == "TENANT_NOT_FOUND", "\(unknown.text)")
        }
    }

    @Test("the JS SDK's hand-over event names the tenant its start named, which signInWithIdp then sends")
    func webSDKEventNamesTheTenant() async throws {
        try await withTenantProviders(.sqlite) { api, _, a, _ in
            let (start, callback) = try await api.webSDKSignIn("oidc.corp", ["tid": a])
            let event = try #require(callback.event)
            #expect(event["tenantId"] == .string(a) && event["error"] == nil, "\(callback.reply.text)")
            let link = try #require(event["urlResponse"]?.stringValue)
            let reply = try await api.completeWebSDK(link: link, sessionID: start["session"], tenantID: a)
            #expect(reply.status == .ok && Self.tenant(of: reply) == a, "\(reply.text)")
        }
    }

    @Test(
        "SAML in a tenant: the tenant's provider, one sign-in in that tenant only; the same NameID in two tenants is two accounts",
        arguments: StoreEngine.all)
    func samlInTenants(engine: StoreEngine) async throws {
        try await withTenantProviders(engine) { api, _, a, b in
            try await api.configureTenantSAML(a)
            try await api.configureTenantSAML(b)
            // The project has no SAML provider.
            let unknown = try await api.handler(API.redirectQuery("saml.corp", sessionID: "s"))
            #expect(unknown.status == .badRequest && unknown.text.contains("not configured"), "\(unknown.text)")
            func signIn(_ tenant: String, session: String, assertion: String) async throws -> (link: String, reply: Reply) {
                let start = try await api.handler(API.redirectQuery("saml.corp", sessionID: session, ["tid": tenant]))
                #expect(start.status == .seeOther, "\(start.text)")
                let (requestID, relayState) = try API.samlRequest(at: try #require(start.headers[.location]))
                let xml = try signed(samlResponse(to: requestID, now: api.clock.now(), assertionID: assertion))
                let callback = try RedirectCallback(try await api.postSAML(xml, relayState: relayState))
                let other = tenant == a ? b : a
                let crossed = try await api.completeRedirect(link: callback.link, sessionID: session, providerID: "saml.corp", tenantID: other)
                #expect(crossed.errorCode == "INVALID_IDP_RESPONSE", "\(crossed.text)")
                return (
                    callback.link, try await api.completeRedirect(link: callback.link, sessionID: session, providerID: "saml.corp", tenantID: tenant)
                )
            }
            let (linkA, inA) = try await signIn(a, session: "saml-a", assertion: "_tenant-a")
            #expect(inA.status == .ok && inA["isNewUser"] == .bool(true), "\(inA.text)")
            let claims = try JWT.payload(try #require(inA.string("idToken")))
            #expect(claims["firebase"]?["tenant"] == .string(a) && claims["firebase"]?["sign_in_provider"] == "saml.corp")
            #expect(claims["firebase"]?["sign_in_attributes"]?["groups"] == ["admins", "staff"])
            let replay = try await api.completeRedirect(link: linkA, sessionID: "saml-a", providerID: "saml.corp", tenantID: a)
            #expect(replay.errorCode == "INVALID_IDP_RESPONSE", "\(replay.text)")
            let (_, inB) = try await signIn(b, session: "saml-b", assertion: "_tenant-b")
            #expect(inB.status == .ok && inB["isNewUser"] == .bool(true) && inB.string("localId") != inA.string("localId"), "\(inB.text)")
            #expect(Self.tenant(of: inB) == b)
            // The IdP's post for a tenant whose provider is gone: the app is told, nothing signs in.
            let start = try await api.handler(API.redirectQuery("saml.corp", sessionID: "saml-gone", ["tid": b]))
            let (requestID, relayState) = try API.samlRequest(at: try #require(start.headers[.location]))
            #expect(try await api.admin(.delete, "\(TenantTests.tenants)/\(b)/inboundSamlConfigs/saml.corp").status == .ok)
            let gone = try RedirectCallback(
                try await api.postSAML(try signed(samlResponse(to: requestID, now: api.clock.now(), assertionID: "_gone")), relayState: relayState))
            #expect(gone.link.isEmpty && gone.inner["firebaseError"]?.contains("not configured") == true, "\(gone.inner)")
        }
    }
}
