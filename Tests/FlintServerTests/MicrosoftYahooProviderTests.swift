import FlintCore
import FlintServerTestSupport
import FlintTesting
import Foundation
import HTTPTypes
import Testing

@testable import FlintServer

/// Runs `body` against a node whose Microsoft and Yahoo addresses are served by a stand-in issuer, with both providers
/// configured (client IDs and secrets).
private func withMicrosoftAndYahoo(_ body: @escaping @Sendable (API, StandInIssuer) async throws -> Void) async throws {
    let issuer = try StandInIssuer()
    try await issuer.serve {
        try await withFlint(configure: { settings in
            settings.identityProviderStandIns = ["microsoft.com": issuer.issuer, "yahoo.com": issuer.issuer]
        }) { api in
            issuer.follow(api.clock)
            try await api.configureIdp("microsoft.com", ["enabled": true, "clientId": .string(microsoftClientID), "clientSecret": "ms-secret"])
            try await api.configureIdp("yahoo.com", ["enabled": true, "clientId": .string(yahooClientID), "clientSecret": "y-secret"])
            try await body(api, issuer)
        }
    }
}

/// A work account's directory, and Microsoft's directory of personal accounts.
private let workDirectory = "72f988bf-86f1-41af-91ab-2d7cd011db47"
private let consumersDirectory = "9188040d-6c67-4c5b-b112-36a304b66dad"

/// Claims of a Microsoft v2.0 ID token: `iss` is the token's directory's unless told.
private func microsoftClaims(
    _ api: API, tid: String = workDirectory, iss: String? = nil, aud: String = microsoftClientID, email: String? = "ada@contoso.example"
) -> [String: JSONValue] {
    let now = api.clock.now().secondsSince1970
    var claims: [String: JSONValue] = [
        "iss": .string(iss ?? "https://login.microsoftonline.com/\(tid)/v2.0"), "aud": .string(aud), "tid": .string(tid),
        "sub": "pairwise-sub-for-this-app", "oid": "00000000-0000-0000-66f3-3332eca7ea81", "name": "Ada Lovelace",
        "preferred_username": "ada@contoso.example", "iat": .number(Double(now)), "exp": .number(Double(now + 3600)),
    ]
    if let email { claims["email"] = .string(email) }
    return claims
}

/// Claims of a Yahoo ID token.
private func yahooClaims(_ api: API, sub: String = "YAHOO123", email: String = "grace@yahoo.example", verified: Bool = true) -> [String: JSONValue] {
    let now = api.clock.now().secondsSince1970
    return [
        "iss": "https://api.login.yahoo.com", "aud": .string(yahooClientID), "sub": .string(sub), "email": .string(email),
        "email_verified": .bool(verified), "name": "Grace Hopper", "given_name": "Grace", "family_name": "Hopper",
        "iat": .number(Double(now)), "exp": .number(Double(now + 3600)),
    ]
}

@Suite("Microsoft and Yahoo sign-in (built-in OIDC providers)")
struct MicrosoftYahooProviderTests {
    @Test("microsoft.com: a new account keyed by the directory's object ID, then the same account; the issuer must be the token's directory's")
    func microsoftIDToken() async throws {
        try await withMicrosoftAndYahoo { api, issuer in
            let token = try issuer.token(microsoftClaims(api))
            let first = try await api.signInWithIdp([("providerId", "microsoft.com"), ("id_token", token), ("access_token", "ms-access")])
            #expect(first.status == .ok, "\(first.text)")
            #expect(first["isNewUser"] == .bool(true) && first.string("providerId") == "microsoft.com")
            #expect(first.string("federatedId") == "00000000-0000-0000-66f3-3332eca7ea81")
            // No `email_verified` from Microsoft: the email is kept, unverified.
            #expect(first.string("email") == "ada@contoso.example" && first["emailVerified"] == .bool(false))
            #expect(first.string("oauthIdToken") == token && first.string("oauthAccessToken") == "ms-access")
            let again = try await api.signInWithIdp([("providerId", "microsoft.com"), ("id_token", try issuer.token(microsoftClaims(api)))])
            #expect(again.string("localId") == first.string("localId") && again["isNewUser"] == .bool(false), "\(again.text)")

            let otherIssuer = try await api.signInWithIdp([
                ("providerId", "microsoft.com"),
                ("id_token", try issuer.token(microsoftClaims(api, iss: "https://login.microsoftonline.com/\(consumersDirectory)/v2.0"))),
            ])
            #expect(otherIssuer.errorCode == "INVALID_IDP_RESPONSE", "\(otherIssuer.text)")
            let otherApp = try await api.signInWithIdp([
                ("providerId", "microsoft.com"), ("id_token", try issuer.token(microsoftClaims(api, aud: "another-app"))),
            ])
            #expect(otherApp.errorCode == "INVALID_IDP_RESPONSE", "\(otherApp.text)")
            let noToken = try await api.signInWithIdp([("providerId", "microsoft.com"), ("access_token", "ms-access")])
            #expect(noToken.errorCode == "INVALID_IDP_RESPONSE", "\(noToken.text)")
        }
    }

    @Test("microsoft.com web flow: the app's tenant picks the endpoints, and a consumers sign-in refuses a work account's token")
    func microsoftTenant() async throws {
        try await withMicrosoftAndYahoo { api, issuer in
            try await api.allowApp()
            issuer.signIn(as: ["sub": "pairwise", "oid": "personal-oid", "tid": .string(consumersDirectory), "email": "me@outlook.example"])
            let personal = try RedirectCallback(
                try await api.redirectSignIn("microsoft.com", sessionID: "s1", ["customParameters": #"{"tenant":"consumers"}"#]))
            let signedIn = try await api.completeRedirect(link: personal.link, sessionID: "s1", providerID: "microsoft.com")
            #expect(signedIn.status == .ok && signedIn.string("federatedId") == "personal-oid", "\(signedIn.text)")
            #expect(issuer.endpointPaths.suffix(2) == ["/consumers/oauth2/v2.0/authorize", "/consumers/oauth2/v2.0/token"])
            // The client secret goes in the form, as Microsoft's token endpoint takes it.
            #expect(issuer.tokenRequests.last?.body.contains("client_secret=ms-secret") == true)

            issuer.signIn(as: ["sub": "pairwise", "oid": "work-oid", "tid": .string(workDirectory), "email": "ada@contoso.example"])
            let work = try RedirectCallback(
                try await api.redirectSignIn("microsoft.com", sessionID: "s2", ["customParameters": #"{"tenant":"consumers"}"#]))
            let refused = try await api.completeRedirect(link: work.link, sessionID: "s2", providerID: "microsoft.com")
            #expect(refused.errorCode == "INVALID_IDP_RESPONSE", "\(refused.text)")
            // Without a tenant: `common`, any directory.
            let common = try RedirectCallback(try await api.redirectSignIn("microsoft.com", sessionID: "s3"))
            let admitted = try await api.completeRedirect(link: common.link, sessionID: "s3", providerID: "microsoft.com")
            #expect(admitted.status == .ok && admitted.string("federatedId") == "work-oid", "\(admitted.text)")
            #expect(issuer.endpointPaths.suffix(2) == ["/common/oauth2/v2.0/authorize", "/common/oauth2/v2.0/token"])
        }
    }

    @Test("microsoft.com: linked to a signed-in account; an existing account's email (Microsoft's are unverified) needs confirmation")
    func microsoftLinkAndConfirmation() async throws {
        try await withMicrosoftAndYahoo { api, issuer in
            let owner = try await api.signUp("lin@example.com")
            var claims = microsoftClaims(api, email: "lin@example.com")
            claims["oid"] = "linked-oid"
            let linked = try await api.signInWithIdp(
                [("providerId", "microsoft.com"), ("id_token", try issuer.token(claims))], idToken: owner.idToken)
            #expect(linked.status == .ok && linked.string("localId") == owner.localId, "\(linked.text)")
            #expect(try await api.lookup(owner.idToken).providerIDs().contains("microsoft.com"))

            let other = try await api.signUp("kim@example.com")
            claims["oid"] = "other-oid"
            claims["email"] = "kim@example.com"
            let confirm = try await api.signInWithIdp([("providerId", "microsoft.com"), ("id_token", try issuer.token(claims))])
            #expect(confirm["needConfirmation"] == .bool(true) && confirm.string("localId") == other.localId, "\(confirm.text)")
            #expect(confirm.string("idToken") == nil && confirm.string("pendingToken") != nil)
        }
    }

    @Test("microsoft.com tenant rules")
    func tenantRules() {
        #expect(Microsoft.admits(tenant: "common", directory: workDirectory))
        #expect(Microsoft.admits(tenant: "organizations", directory: workDirectory))
        #expect(!Microsoft.admits(tenant: "organizations", directory: consumersDirectory))
        #expect(Microsoft.admits(tenant: "consumers", directory: consumersDirectory))
        #expect(!Microsoft.admits(tenant: "consumers", directory: workDirectory))
        #expect(Microsoft.admits(tenant: workDirectory.uppercased(), directory: workDirectory))
        #expect(!Microsoft.admits(tenant: consumersDirectory, directory: workDirectory))
        #expect(!Microsoft.isTenant("../evil") && !Microsoft.isTenant("a/b") && !Microsoft.isTenant(""))
        #expect(Microsoft.isTenant("contoso.onmicrosoft.com") && Microsoft.isDirectoryID(workDirectory))
    }

    @Test("yahoo.com: a new account, the same again, linked to a signed-in account, needConfirmation for an unverified email of an account")
    func yahoo() async throws {
        try await withMicrosoftAndYahoo { api, issuer in
            let first = try await api.signInWithIdp([("providerId", "yahoo.com"), ("id_token", try issuer.token(yahooClaims(api)))])
            #expect(first.status == .ok && first["isNewUser"] == .bool(true), "\(first.text)")
            #expect(first.string("federatedId") == "YAHOO123" && first["emailVerified"] == .bool(true))
            #expect(first.string("firstName") == "Grace" && first.string("displayName") == "Grace Hopper")
            let again = try await api.signInWithIdp([("providerId", "yahoo.com"), ("id_token", try issuer.token(yahooClaims(api)))])
            #expect(again.string("localId") == first.string("localId") && again["isNewUser"] == .bool(false))

            let owner = try await api.signUp("lin@example.com")
            let linked = try await api.signInWithIdp(
                [("providerId", "yahoo.com"), ("id_token", try issuer.token(yahooClaims(api, sub: "Y2", email: "lin@example.com")))],
                idToken: owner.idToken)
            #expect(linked.status == .ok && linked.string("localId") == owner.localId, "\(linked.text)")
            #expect(try await api.lookup(owner.idToken).providerIDs().contains("yahoo.com"))

            let other = try await api.signUp("kim@example.com")
            let unverified = try await api.signInWithIdp([
                ("providerId", "yahoo.com"), ("id_token", try issuer.token(yahooClaims(api, sub: "Y3", email: "kim@example.com", verified: false))),
            ])
            #expect(unverified["needConfirmation"] == .bool(true) && unverified.string("localId") == other.localId, "\(unverified.text)")
            #expect(unverified.string("idToken") == nil)

            let expired = try await api.signInWithIdp([
                ("providerId", "yahoo.com"),
                ("id_token", try issuer.token(yahooClaims(api).merging(["exp": .number(Double(api.clock.now().secondsSince1970 - 600))]) { $1 })),
            ])
            #expect(expired.errorCode == "INVALID_IDP_RESPONSE", "\(expired.text)")
        }
    }

    @Test("yahoo.com web flow through the hosted handler")
    func yahooWebFlow() async throws {
        try await withMicrosoftAndYahoo { api, issuer in
            try await api.allowApp()
            issuer.signIn(as: ["sub": "YW", "email": "web@yahoo.example", "email_verified": true])
            let callback = try RedirectCallback(try await api.redirectSignIn("yahoo.com", sessionID: "s"))
            let reply = try await api.completeRedirect(link: callback.link, sessionID: "s", providerID: "yahoo.com")
            #expect(reply.status == .ok && reply.string("federatedId") == "YW", "\(reply.text)")
            #expect(issuer.endpointPaths.suffix(2) == ["/oauth2/request_auth", "/oauth2/get_token"])
            // Yahoo takes the client secret by HTTP Basic.
            #expect(issuer.tokenRequests.last?.authorization?.hasPrefix("Basic ") == true)
        }
    }

    @Test("a provider that cannot be reached: a clear INVALID_IDP_RESPONSE at once, not a hang")
    func providerDown() async throws {
        // Port 1 on loopback: nothing listens there, so connecting is refused.
        try await withFlint(configure: { settings in
            settings.identityProviderStandIns = ["yahoo.com": "http://127.0.0.1:1"]
        }) { api in
            try await api.configureIdp("yahoo.com", ["enabled": true, "clientId": .string(yahooClientID)])
            let issuer = try StandInIssuer()
            let started = ContinuousClock.now
            let reply = try await api.signInWithIdp([("providerId", "yahoo.com"), ("id_token", try issuer.token(yahooClaims(api)))])
            #expect(reply.status == .badRequest && reply.errorCode == "INVALID_IDP_RESPONSE", "\(reply.text)")
            // async-http-client retries a refused connection until the request's deadline (ProviderKeys.requestTimeout,
            // 10 s): the answer comes then, however busy the machine; a hang would never answer.
            #expect(ContinuousClock.now - started < .seconds(60))
        }
    }
}
