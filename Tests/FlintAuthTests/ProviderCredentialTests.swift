import FlintAuthTestSupport
import Foundation
import Testing

@testable import FlintAuth

/// Facebook, GitHub and X credentials against a scripted server: the `signInWithIdp` request each sends, as
/// FirebaseAuth writes it, and how the SDK reads the answers Google's backend gives (a new account, a returning one,
/// confirmation needed, an identity another account has).
@Suite("Facebook, GitHub and X credentials")
struct ProviderCredentialTests {
    enum Provider: String, CaseIterable {
        case facebook, facebookLimitedLogin, gitHub, twitter
    }

    /// What `provider`'s credential is, the `postBody` it must send, and the answer of a first sign-in.
    private static func scenario(_ provider: Provider) -> (credential: AuthCredential, form: [String: String], answer: String) {
        switch provider {
        case .facebook:
            return (
                FacebookAuthProvider.credential(withAccessToken: "EAAB+token/1"),
                ["providerId": "facebook.com", "access_token": "EAAB+token/1"],
                #"{"kind":"identitytoolkit#VerifyAssertionResponse","federatedId":"http://facebook.com/10220","providerId":"facebook.com","localId":"uid-1","email":"ada@example.com","displayName":"Ada Lovelace","idToken":"firebase.id.token","refreshToken":"refresh-1","expiresIn":"3600","oauthAccessToken":"EAAB+token/1","oauthExpireIn":5183999,"rawUserInfo":"{\"name\":\"Ada Lovelace\",\"id\":\"10220\",\"email\":\"ada@example.com\"}","isNewUser":true}"#
            )
        case .facebookLimitedLogin:
            return (
                OAuthProvider.credential(providerID: .facebook, idToken: "limited.login.jwt", rawNonce: "raw nonce&1"),
                ["providerId": "facebook.com", "id_token": "limited.login.jwt", "nonce": "raw nonce&1"],
                #"{"federatedId":"http://facebook.com/10220","providerId":"facebook.com","localId":"uid-1","idToken":"firebase.id.token","refreshToken":"refresh-1","expiresIn":"3600","oauthIdToken":"limited.login.jwt","rawUserInfo":"{\"name\":\"Ada Lovelace\",\"id\":\"10220\"}","isNewUser":true}"#
            )
        case .gitHub:
            return (
                GitHubAuthProvider.credential(withToken: "gho_16C7e42F"),
                ["providerId": "github.com", "access_token": "gho_16C7e42F"],
                #"{"federatedId":"https://github.com/583231","providerId":"github.com","localId":"uid-1","idToken":"firebase.id.token","refreshToken":"refresh-1","expiresIn":"3600","oauthAccessToken":"gho_16C7e42F","screenName":"ada-l","rawUserInfo":"{\"login\":\"ada-l\",\"id\":583231}","isNewUser":true}"#
            )
        case .twitter:
            return (
                TwitterAuthProvider.credential(
                    withToken: "6253282-eWudHldSbIaelX7swmsiHImEL4KinwaGloHANdrY", secret: "2EEfA6BG5ly3sR3XjE0IBSnlQu4ZrUzPiYTmrkVU"),
                [
                    "providerId": "twitter.com", "access_token": "6253282-eWudHldSbIaelX7swmsiHImEL4KinwaGloHANdrY",
                    "oauth_token_secret": "2EEfA6BG5ly3sR3XjE0IBSnlQu4ZrUzPiYTmrkVU",
                ],
                #"{"federatedId":"http://twitter.com/6253282","providerId":"twitter.com","localId":"uid-1","idToken":"firebase.id.token","refreshToken":"refresh-1","expiresIn":"3600","oauthAccessToken":"6253282-eWudHldSbIaelX7swmsiHImEL4KinwaGloHANdrY","oauthTokenSecret":"2EEfA6BG5ly3sR3XjE0IBSnlQu4ZrUzPiYTmrkVU","username":"ada","rawUserInfo":"{\"screen_name\":\"ada\",\"id_str\":\"6253282\"}","isNewUser":true}"#
            )
        }
    }

    /// The answer of `accounts:lookup` for the signed-in user, with the providers it has.
    static func lookup(uid: String = "uid-1", providers: [String] = []) -> ScriptedHTTPServer.Answer {
        let infos = providers.map { #"{"providerId":"\#($0)","federatedId":"\#($0)-id"}"# }.joined(separator: ",")
        return .status(200, #"{"users":[{"localId":"\#(uid)","email":"ada@example.com","providerUserInfo":[\#(infos)]}]}"#)
    }

    /// The JSON object of the `index`th request the server saw.
    static func body(_ server: ScriptedHTTPServer, _ index: Int) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(server.requestBodies[index].utf8)) as? [String: Any])
    }

    @Test("a first sign-in: the postBody FirebaseAuth writes, then the new account's provider details and tokens", arguments: Provider.allCases)
    func firstSignIn(provider: Provider) async throws {
        let (credential, form, answer) = Self.scenario(provider)
        let server = try ScriptedHTTPServer(script: [.status(200, answer), Self.lookup(providers: [credential.provider])])
        defer { server.stop() }
        let auth = try OAuthOfflineTests.auth(port: server.port)
        let result = try await auth.signIn(with: credential)

        #expect(server.requestLines.first?.hasPrefix("POST /identitytoolkit.googleapis.com/v1/accounts:signInWithIdp?key=k ") == true)
        #expect(server.requestLines.last?.contains("/v1/accounts:lookup") == true)
        let body = try Self.body(server, 0)
        #expect(Set(body.keys) == ["requestUri", "postBody", "returnSecureToken", "returnIdpCredential", "autoCreate"])
        #expect(body["requestUri"] as? String == "http://localhost")
        #expect(body["returnSecureToken"] as? Bool == true && body["returnIdpCredential"] as? Bool == true && body["autoCreate"] as? Bool == true)
        #expect(OAuthOfflineTests.form(try #require(body["postBody"] as? String)) == form)

        #expect(result.user.uid == "uid-1" && auth.currentUser === result.user)
        let info = try #require(result.additionalUserInfo)
        #expect(info.providerID == credential.provider)
        #expect(info.isNewUser && info.newUser())
        let returned = try #require(result.credential)
        #expect(returned.provider == credential.provider)
        switch provider {
        case .facebook:
            #expect(info.profile?["id"] as? String == "10220" && info.profile?["name"] as? String == "Ada Lovelace")
            #expect(info.username == nil)
            #expect(returned.accessToken == "EAAB+token/1" && returned.idToken == nil && returned.secret == nil)
        case .facebookLimitedLogin:
            #expect(info.profile?["id"] as? String == "10220")
            #expect(returned.idToken == "limited.login.jwt" && returned.accessToken == nil)
        case .gitHub:
            #expect(info.profile?["login"] as? String == "ada-l" && info.profile?["id"] as? Int == 583231)
            #expect(info.username == "ada-l")
            #expect(returned.accessToken == "gho_16C7e42F" && returned.secret == nil)
        case .twitter:
            #expect(info.profile?["screen_name"] as? String == "ada")
            #expect(info.username == "ada")
            #expect(returned.accessToken == "6253282-eWudHldSbIaelX7swmsiHImEL4KinwaGloHANdrY")
            #expect(returned.secret == "2EEfA6BG5ly3sR3XjE0IBSnlQu4ZrUzPiYTmrkVU")
        }
    }

    @Test("a returning account is not new; re-authentication creates no account; a link another account has is refused with its credential")
    func returningAccount() async throws {
        let returning =
            #"{"federatedId":"https://github.com/583231","providerId":"github.com","localId":"uid-1","idToken":"firebase.id.token","refreshToken":"refresh-1","expiresIn":"3600","oauthAccessToken":"gho_2","screenName":"ada-l"}"#
        let server = try ScriptedHTTPServer(script: [
            .status(200, returning), Self.lookup(providers: ["github.com"]),
            .status(200, returning), Self.lookup(providers: ["github.com"]),
            .status(
                200,
                #"{"kind":"identitytoolkit#VerifyAssertionResponse","providerId":"twitter.com","federatedId":"http://twitter.com/99","email":"other@example.com","errorMessage":"FEDERATED_USER_ID_ALREADY_LINKED","oauthAccessToken":"99-token","oauthTokenSecret":"99-secret"}"#
            ),
        ])
        defer { server.stop() }
        let auth = try OAuthOfflineTests.auth(port: server.port)
        let github = GitHubAuthProvider.credential(withToken: "gho_2")
        let signedIn = try await auth.signIn(with: github)
        #expect(signedIn.additionalUserInfo?.isNewUser == false && signedIn.additionalUserInfo?.newUser() == false)
        #expect(signedIn.additionalUserInfo?.username == "ada-l" && signedIn.additionalUserInfo?.profile == nil)

        let again = try await signedIn.user.reauthenticate(with: github)
        #expect(try Self.body(server, 2)["autoCreate"] as? Bool == false)
        #expect(
            OAuthOfflineTests.form(try #require(try Self.body(server, 2)["postBody"] as? String)) == [
                "providerId": "github.com", "access_token": "gho_2",
            ])
        #expect(again.additionalUserInfo?.providerID == "github.com" && again.credential?.accessToken == "gho_2")

        do {
            _ = try await signedIn.user.link(with: TwitterAuthProvider.credential(withToken: "99-token", secret: "99-secret"))
            Issue.record("linked an identity another account has")
        } catch let error as NSError {
            #expect(error.code == AuthErrorCode.credentialAlreadyInUse.rawValue)
            #expect(error.userInfo[AuthErrorUserInfoEmailKey] as? String == "other@example.com")
            let updated = try #require(error.userInfo[AuthErrorUserInfoUpdatedCredentialKey] as? OAuthCredential)
            #expect(updated.provider == "twitter.com" && updated.accessToken == "99-token" && updated.secret == "99-secret")
        }
        let link = try Self.body(server, 4)
        #expect(link["idToken"] as? String == "firebase.id.token")
        #expect(
            OAuthOfflineTests.form(try #require(link["postBody"] as? String)) == [
                "providerId": "twitter.com", "access_token": "99-token", "oauth_token_secret": "99-secret",
            ])
    }

    @Test("needConfirmation is accountExistsWithDifferentCredential with the email and Facebook's token; INVALID_IDP_RESPONSE is invalidCredential")
    func refusals() async throws {
        let server = try ScriptedHTTPServer(script: [
            .status(
                200,
                #"{"kind":"identitytoolkit#VerifyAssertionResponse","federatedId":"http://facebook.com/10220","providerId":"facebook.com","email":"ada@example.com","needConfirmation":true,"oauthAccessToken":"EAAB-token"}"#
            ),
            .status(
                400, #"{"error":{"code":400,"message":"INVALID_IDP_RESPONSE : The Facebook access token was not issued for this app.","errors":[]}}"#),
        ])
        defer { server.stop() }
        let auth = try OAuthOfflineTests.auth(port: server.port)
        let facebook = FacebookAuthProvider.credential(withAccessToken: "EAAB-token")
        do {
            _ = try await auth.signIn(with: facebook)
            Issue.record("signed in without confirmation")
        } catch let error as NSError {
            #expect(error.code == AuthErrorCode.accountExistsWithDifferentCredential.rawValue)
            #expect(error.userInfo[AuthErrorUserInfoEmailKey] as? String == "ada@example.com")
            let updated = try #require(error.userInfo[AuthErrorUserInfoUpdatedCredentialKey] as? OAuthCredential)
            #expect(updated.provider == "facebook.com" && updated.accessToken == "EAAB-token")
        }
        do {
            _ = try await auth.signIn(with: facebook)
            Issue.record("signed in with a refused token")
        } catch let error as NSError {
            #expect(error.code == AuthErrorCode.invalidCredential.rawValue)
            #expect(error.localizedDescription == "The Facebook access token was not issued for this app.")
        }
        #expect(auth.currentUser == nil)
    }

    @Test("provider IDs and OAuthProvider's names are FirebaseAuth's")
    func names() {
        #expect(FacebookAuthProvider.id == "facebook.com" && GitHubAuthProvider.id == "github.com" && TwitterAuthProvider.id == "twitter.com")
        #expect(OAuthProvider.id == "OAuth")
        #expect(AuthProviderID.microsoft.rawValue == "microsoft.com" && AuthProviderID.yahoo.rawValue == "yahoo.com")
        #expect(AuthProviderID.twitter.rawValue == TwitterAuthProviderID)
    }

    @Test("Microsoft's and Yahoo's web sign-in put the provider, scopes, custom parameters and tenant in the handler's URL")
    func webSignInURL() async throws {
        let auth = try OAuthOfflineTests.auth(port: 9099)
        auth.tenantID = "tenant-1"
        let microsoft = OAuthProvider(providerID: .microsoft, auth: auth)
        microsoft.scopes = ["mail.read", "calendars.read"]
        microsoft.customParameters = ["prompt": "consent", "tenant": "contoso.onmicrosoft.com"]
        let url = try await microsoft.handlerURL(eventID: "e1", sessionID: "s1", client: URLQueryItem(name: "appId", value: "1:2:ios:3"))
        #expect(url.absoluteString.hasPrefix("http://127.0.0.1:9099/emulator/auth/handler?"))
        var items: [String: String] = [:]
        for item in URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? [] { items[item.name] = item.value }
        #expect(items["providerId"] == "microsoft.com" && items["tid"] == "tenant-1" && items["scopes"] == "mail.read,calendars.read")
        #expect(items["customParameters"] == #"{"prompt":"consent","tenant":"contoso.onmicrosoft.com"}"#)
        #expect(items["authType"] == "signInWithRedirect" && items["appId"] == "1:2:ios:3")

        auth.tenantID = nil
        let yahoo = OAuthProvider(providerID: .yahoo, auth: auth)
        yahoo.customParameters = ["language": "fr"]
        let yahooURL = try await yahoo.handlerURL(eventID: "e2", sessionID: "s2", client: URLQueryItem(name: "appId", value: "1:2:ios:3"))
        let yahooItems = URLComponents(url: yahooURL, resolvingAgainstBaseURL: false)?.queryItems ?? []
        #expect(yahooItems.contains(URLQueryItem(name: "providerId", value: "yahoo.com")))
        #expect(!yahooItems.contains { $0.name == "tid" || $0.name == "scopes" })
    }
}
