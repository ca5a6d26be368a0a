import FlintAuthTestSupport
import FlintCore
import FlintTesting
import Foundation
import Testing

@testable import FlintAuth

/// A provider's web sign-in (`OAuthProvider.getCredentialWith`, `signIn(with:uiDelegate:)`) against `flint serve` and a
/// stand-in OIDC provider on loopback, through a browser that follows the redirects.
@Suite("OAuth web sign-in through the hosted handler against flint serve")
struct OAuthWebFlowTests {
    /// Runs `body` with the stand-in configured as `oidc.corp` and an app of the project (`com.example.app`).
    func withWebSignIn(_ body: (FlintProcess, StandInProvider, Auth) async throws -> Void) async throws {
        let provider = try StandInProvider()
        defer { provider.stop() }
        try await withFlint { server in
            try await server.configureWebSignIn(issuer: provider.issuer)
            try await body(server, provider, server.makeVerifyingAuth())
        }
    }

    @Test("getCredentialWith through the browser, then signIn(with:): a new account; signIn(with:uiDelegate:) again: the same one")
    func signInTwice() async throws {
        try await withWebSignIn { _, _, auth in
            let browser = RedirectBrowser(auth: auth)
            let provider = OAuthProvider(providerID: "oidc.corp", auth: auth)
            provider.scopes = ["groups"]
            provider.customParameters = ["prompt": "consent"]
            let credential = try await provider.getCredentialWith(browser)
            let opened = try #require(browser.opened.events.first)
            #expect(opened.path == "/emulator/auth/handler")
            let query = URLComponents(url: opened, resolvingAgainstBaseURL: false)?.queryItems ?? []
            func item(_ name: String) -> String? { query.first { $0.name == name }?.value }
            #expect(item("authType") == "signInWithRedirect" && item("providerId") == "oidc.corp" && item("ibi") == "com.example.app")
            #expect(item("appId") == testGoogleAppID && item("scopes") == "groups" && item("customParameters") == #"{"prompt":"consent"}"#)
            let oauth = try #require(credential as? OAuthCredential)
            #expect(item("sessionId") == SHA256Hex.digest(try #require(oauth.sessionID)))
            #expect(oauth.responseURL?.contains("/__/auth/handler?code=") == true)
            #expect(browser.dismissals.current == 1 && browser.failures.current.isEmpty)

            let first = try await auth.signIn(with: credential)
            #expect(first.additionalUserInfo?.isNewUser == true && first.additionalUserInfo?.providerID == "oidc.corp")
            #expect(first.user.email == "lin@corp.example" && first.user.providerData.contains { $0.providerID == "oidc.corp" })
            try auth.signOut()

            let again = try await auth.signIn(with: provider, uiDelegate: browser)
            #expect(again.user.uid == first.user.uid && again.additionalUserInfo?.isNewUser == false)
            // The link of a finished sign-in cannot sign in again.
            try auth.signOut()
            await expectAuthError(.invalidCredential, "a spent link signed in again") { try await auth.signIn(with: credential) }
        }
    }

    @Test("link(with:uiDelegate:) adds the provider to a signed-in account; reauthenticate(with:uiDelegate:) keeps it signed in")
    func linkAndReauthenticate() async throws {
        try await withWebSignIn { _, stand, auth in
            stand.user.withLock { $0 = ["sub": "emp-2", "email": .string(uniqueEmail()), "email_verified": true] }
            let browser = RedirectBrowser(auth: auth)
            let provider = OAuthProvider(providerID: "oidc.corp", auth: auth)
            let user = try await auth.signInAnonymously().user
            let linked = try await user.link(with: provider, uiDelegate: browser)
            #expect(linked.user.uid == user.uid && user.providerData.contains { $0.providerID == "oidc.corp" })
            let again = try await user.reauthenticate(with: provider, uiDelegate: browser)
            #expect(again.user.uid == user.uid)
        }
    }

    @Test("the provider's refusal is webSignInUserInteractionFailure; giving up on the page is webContextCancelled")
    func refusalAndCancel() async throws {
        try await withWebSignIn { _, _, auth in
            let provider = OAuthProvider(providerID: "oidc.corp", auth: auth)
            provider.customParameters = ["login_hint": "deny"]
            await expectAuthError(.webSignInUserInteractionFailure, "a refused sign-in gave a credential") {
                try await provider.getCredentialWith(RedirectBrowser(auth: auth))
            }
            let idle = RedirectBrowser(auth: auth, follows: false)
            let waiting = Task { try await OAuthProvider(providerID: "oidc.corp", auth: auth).getCredentialWith(idle) }
            _ = await idle.opened.wait(for: 1)  // the sign-in is waiting on its page
            waiting.cancel()
            await expectAuthError(.webContextCancelled, "a cancelled sign-in gave a credential") { try await waiting.value }
            #expect(idle.dismissals.current == 1)
            // A callback for no page on screen is not ours.
            let stray = try #require(URL(string: "\(testCallbackScheme)://firebaseauth/link?deep_link_id=x"))
            #expect(!auth.canHandle(stray))
        }
    }

    @Test("with Auth.tenantID set, the start names the tenant (tid) and signInWithIdp sends tenantId: the tenant's provider and account")
    func tenantSignIn() async throws {
        try await withWebSignIn { server, stand, auth in
            let owner = ["Authorization": "Bearer owner"]
            let base = "/identitytoolkit.googleapis.com/v2/projects/demo-flint/tenants"
            let (status, data) = try await server.send("POST", base, body: Data(#"{"displayName":"web-tenant"}"#.utf8), headers: owner)
            #expect(status == 200, "\(String(decoding: data, as: UTF8.self))")
            let name = try #require((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["name"] as? String)
            let tenant = String(try #require(name.split(separator: "/").last))
            // The tenant's own client at the same provider (the project's is corp-client).
            let resource: JSONValue = [
                "enabled": true, "clientId": "tenant-client", "clientSecret": "tenant-secret", "issuer": .string(stand.issuer),
            ]
            let (created, answer) = try await server.send(
                "POST", "\(base)/\(tenant)/oauthIdpConfigs?oauthIdpConfigId=oidc.corp", body: Data(resource.serialized()), headers: owner)
            #expect(created == 200, "\(String(decoding: answer, as: UTF8.self))")

            auth.tenantID = tenant
            let browser = RedirectBrowser(auth: auth)
            let inTenant = try await auth.signIn(with: OAuthProvider(providerID: "oidc.corp", auth: auth), uiDelegate: browser)
            let opened = try #require(browser.opened.events.first)
            let query = URLComponents(url: opened, resolvingAgainstBaseURL: false)?.queryItems ?? []
            #expect(query.first { $0.name == "tid" }?.value == tenant)
            #expect(inTenant.user.tenantID == tenant && inTenant.additionalUserInfo?.isNewUser == true)
            let claims = try await inTenant.user.getIDTokenResult().claims
            #expect((claims["firebase"] as? [String: Any])?["tenant"] as? String == tenant)
            #expect(try await auth.fetchSignInMethods(forEmail: "lin@corp.example") == ["oidc.corp"], "createAuthUri in the tenant")
            try auth.signOut()
            // The same person without a tenant: the project's provider, another account.
            auth.tenantID = nil
            let inProject = try await auth.signIn(with: OAuthProvider(providerID: "oidc.corp", auth: auth), uiDelegate: browser)
            #expect(inProject.user.uid != inTenant.user.uid && inProject.user.tenantID == nil)
        }
    }

    @Test("the completion form delivers the credential")
    func completionForm() async throws {
        try await withWebSignIn { _, _, auth in
            let provider = OAuthProvider(providerID: "oidc.corp", auth: auth)
            let browser = RedirectBrowser(auth: auth)
            let credential: AuthCredential = try await withCheckedThrowingContinuation { continuation in
                provider.getCredentialWith(browser) { credential, error in
                    if let credential {
                        continuation.resume(returning: credential)
                    } else {
                        continuation.resume(throwing: error ?? CancellationError())
                    }
                }
            }
            #expect(credential.provider == "oidc.corp")
            #expect(try await auth.signIn(with: credential).user.providerData.contains { $0.providerID == "oidc.corp" })
        }
    }

    @Test("SHA-256 hex of the session ID matches the standard's vectors")
    func sessionHash() {
        #expect(SHA256Hex.digest("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256Hex.digest("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            SHA256Hex.digest("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256Hex.digest(String(repeating: "a", count: 1000)) == ProviderNonceRule.sha256Hex(String(repeating: "a", count: 1000)))
    }
}
