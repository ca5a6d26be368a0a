import FlintAuthTestSupport
import Foundation
import Testing

@testable import FlintAuth

/// OAuth credentials without a server: the `signInWithIdp` bodies the SDK writes, and how it reads the answers that
/// are errors (confirmation needed, an `errorMessage` in a 200 answer, a refusal).
@Suite("OAuth credentials without a server")
struct OAuthOfflineTests {
    static func object(_ value: some Encodable) throws -> NSDictionary {
        try #require(try JSONSerialization.jsonObject(with: try JSONEncoder().encode(value)) as? NSDictionary)
    }

    /// The form fields of a `postBody`, decoded.
    static func form(_ body: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in body.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? "" }
            fields[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        return fields
    }

    @Test("Sign in with Apple: the ID token, the raw nonce and the first sign-in's name in postBody, as FirebaseAuth writes them")
    func appleRequest() throws {
        var name = PersonNameComponents()
        (name.givenName, name.familyName) = ("Zeynep", "Kaya & Co")
        let credential = OAuthProvider.appleCredential(withIDToken: "header.claims.sig", rawNonce: "n+o/n=c&e", fullName: name)
        let request = credential.request()
        let json = try Self.object(request)
        #expect(json["requestUri"] as? String == "http://localhost")
        #expect(json["returnSecureToken"] as? Bool == true && json["returnIdpCredential"] as? Bool == true && json["autoCreate"] as? Bool == true)
        #expect(json["idToken"] == nil && json["pendingToken"] == nil)
        #expect(!request.postBody.contains("+") && !request.postBody.contains("/"), "every reserved byte is escaped")
        #expect(
            Self.form(request.postBody) == [
                "providerId": "apple.com", "id_token": "header.claims.sig", "nonce": "n+o/n=c&e",
                "user": #"{"name":{"firstName":"Zeynep","lastName":"Kaya & Co"}}"#,
            ])
        #expect(credential.provider == "apple.com" && credential.idToken == "header.claims.sig" && credential.accessToken == nil)
    }

    @Test("Google and OIDC credentials; linking sends the user's ID token, re-authentication creates no account")
    func otherRequests() throws {
        let google = try #require(GoogleAuthProvider.credential(withIDToken: "g.id.t", accessToken: "ya29") as? OAuthCredential)
        #expect(Self.form(google.request().postBody) == ["providerId": "google.com", "id_token": "g.id.t", "access_token": "ya29"])
        let oidc = OAuthProvider.credential(providerID: .custom("oidc.corp"), idToken: "o.i.t", rawNonce: "raw")
        #expect(Self.form(oidc.request().postBody) == ["providerId": "oidc.corp", "id_token": "o.i.t", "nonce": "raw"])
        let linking = try Self.object(oidc.request(idToken: "firebase-id-token"))
        #expect(linking["idToken"] as? String == "firebase-id-token")
        #expect(try Self.object(oidc.request(autoCreate: false))["autoCreate"] as? Bool == false)
        let pending = OAuthCredential(providerID: "apple.com", pendingToken: "p1")
        let body = try Self.object(pending.request())
        #expect(body["pendingToken"] as? String == "p1" && Self.form(body["postBody"] as? String ?? "") == ["providerId": "apple.com"])
        let provider = OAuthProvider(providerID: .apple, auth: try Self.auth(port: 1))
        #expect(provider.providerID == "apple.com" && provider.scopes == nil)
    }

    static func auth(port: Int) throws -> Auth {
        let name = "oauth-\(UUID().uuidString.prefix(8))"
        FlintApp.configure(name: name, options: FlintOptions(apiKey: "k", projectID: "demo-flint"))
        let auth = Auth(
            app: try #require(FlintApp.app(name: name)),
            storeDirectory: FileManager.default.temporaryDirectory.appendingPathComponent("flint-auth-\(UUID().uuidString)"))
        auth.useEmulator(withHost: "127.0.0.1", port: port)
        return auth
    }

    @Test("needConfirmation: accountExistsWithDifferentCredential with the email and a credential to link later")
    func needConfirmation() async throws {
        let server = try ScriptedHTTPServer(script: [
            .status(
                200,
                #"{"kind":"identitytoolkit#VerifyAssertionResponse","providerId":"google.com","federatedId":"123","email":"ada@example.com","needConfirmation":true,"oauthIdToken":"g.id.t","pendingToken":"pend"}"#
            )
        ])
        defer { server.stop() }
        let auth = try Self.auth(port: server.port)
        do {
            _ = try await auth.signIn(with: GoogleAuthProvider.credential(withIDToken: "g.id.t", accessToken: "ya29"))
            Issue.record("no error")
        } catch let error as NSError {
            #expect(error.code == AuthErrorCode.accountExistsWithDifferentCredential.rawValue)
            #expect(error.userInfo[AuthErrorUserInfoEmailKey] as? String == "ada@example.com")
            let updated = try #require(error.userInfo[AuthErrorUserInfoUpdatedCredentialKey] as? OAuthCredential)
            #expect(updated.provider == "google.com" && updated.idToken == "g.id.t" && updated.pendingToken == "pend")
        }
        #expect(server.requestLines.first?.contains("/v1/accounts:signInWithIdp") == true)
        #expect(auth.currentUser == nil)
    }

    @Test("an errorMessage in a 200 answer is its error; a refused link carries the credential to sign in with instead")
    func errorAnswers() async throws {
        let server = try ScriptedHTTPServer(script: [
            .status(
                200,
                #"{"providerId":"apple.com","errorMessage":"FEDERATED_USER_ID_ALREADY_LINKED","email":"z@privaterelay.appleid.com","pendingToken":"p2"}"#
            ),
            .status(400, #"{"error":{"code":400,"message":"INVALID_IDP_RESPONSE : The ID token's nonce does not match.","errors":[]}}"#),
            .status(400, #"{"error":{"code":400,"message":"FEDERATED_USER_ID_ALREADY_LINKED","errors":[]}}"#),
        ])
        defer { server.stop() }
        let auth = try Self.auth(port: server.port)
        let backend = auth.backend
        let apple = OAuthProvider.appleCredential(withIDToken: "a.i.t", rawNonce: "raw", fullName: nil)
        for expected in [AuthErrorCode.credentialAlreadyInUse, .invalidCredential, .credentialAlreadyInUse] {
            do {
                _ = try await backend.idpAssertion(apple.request(), credential: apple)
                Issue.record("no error")
            } catch let error as NSError {
                #expect(error.code == expected.rawValue)
                guard expected == .credentialAlreadyInUse else {
                    #expect(error.localizedDescription == "The ID token's nonce does not match.")
                    continue
                }
                let updated = try #require(error.userInfo[AuthErrorUserInfoUpdatedCredentialKey] as? OAuthCredential)
                #expect(updated.provider == "apple.com")
            }
        }
    }
}
