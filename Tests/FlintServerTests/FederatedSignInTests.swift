import FlintCore
import FlintServerTestSupport
import FlintTesting
import Foundation
import HTTPTypes
import Testing

@testable import FlintServer

@Suite("Federated sign-in: signInWithIdp with Apple, Google and OIDC stand-ins")
struct FederatedSignInTests {
    @Test("Sign in with Apple creates the account once, then signs in to it, with Firebase's answer and token claims")
    func appleSignIn() async throws {
        try await withIdentityProviders { api, issuer in
            let token = try issuer.token(appleClaims(api))
            let user = #"{"name":{"firstName":"Ada","lastName":"Lovelace"}}"#
            let first = try await api.signInWithIdp([("providerId", "apple.com"), ("id_token", token), ("nonce", rawNonce), ("user", user)])
            #expect(first.status == .ok, "\(first.text)")
            #expect(first.string("kind") == "identitytoolkit#VerifyAssertionResponse")
            #expect(first.string("providerId") == "apple.com")
            #expect(first.string("federatedId") == "001234.apple")
            #expect(first.string("email") == "x1y2@privaterelay.appleid.com")
            #expect(first["emailVerified"] == .bool(true))
            #expect(first.string("firstName") == "Ada")
            #expect(first.string("lastName") == "Lovelace")
            #expect(first.string("displayName") == "Ada Lovelace")
            #expect(first["isNewUser"] == .bool(true))
            #expect(first.string("expiresIn") == "3600")
            #expect(first.string("oauthIdToken") == token)
            #expect(first.string("refreshToken") != nil)
            let raw = try JSONValue(parsing: Array(try #require(first.string("rawUserInfo")).utf8))
            #expect(raw["sub"]?.stringValue == "001234.apple")
            let localID = try #require(first.string("localId"))
            let claims = try JWT.part(try #require(first.string("idToken")), 1)
            #expect(claims["firebase"]?["sign_in_provider"]?.stringValue == "apple.com")
            #expect(claims["firebase"]?["identities"]?["apple.com"] == ["001234.apple"])
            #expect(claims["firebase"]?["identities"]?["email"] == ["x1y2@privaterelay.appleid.com"])
            #expect(claims["email_verified"] == .bool(true))
            // The same credential again is a replay: its nonce was spent.
            let replay = try await api.signInWithIdp([("providerId", "apple.com"), ("id_token", token), ("nonce", rawNonce)])
            #expect(replay.errorMessage == "MISSING_OR_INVALID_NONCE : Duplicate credential received. Please try again with a new credential.")
            // Again with a new credential: the same account, no longer new (Apple sends the name only the first time).
            let again = try await api.signInWithIdp(
                [("providerId", "apple.com"), ("id_token", try issuer.token(appleClaims(api, nonce: "second nonce"))), ("nonce", "second nonce")])
            #expect(again.status == .ok, "\(again.text)")
            #expect(again.string("localId") == localID)
            #expect(again["isNewUser"] == .bool(false))
            let account = try #require(try await api.adminAccount(localID))
            #expect(account["displayName"]?.stringValue == "Ada Lovelace")
            #expect(account["providerUserInfo"]?.arrayValue?.compactMap { $0["providerId"]?.stringValue } == ["apple.com"])
            // The name Apple gave once stays on the identity.
            #expect(account["providerUserInfo"]?.arrayValue?.first?["displayName"]?.stringValue == "Ada Lovelace")
            // A refreshed token lists the identity too.
            let refreshed = try await api.refresh(try #require(first.string("refreshToken")))
            let refreshedClaims = try JWT.part(try #require(refreshed.string("id_token")), 1)
            #expect(refreshedClaims["firebase"]?["identities"]?["apple.com"] == ["001234.apple"])
        }
    }

    @Test("Google and OIDC (found through discovery) sign in; the v3 verifyAssertion alias answers the same")
    func googleAndOIDC() async throws {
        try await withIdentityProviders { api, issuer in
            let reply = try await api.signInWithIdp([("providerId", "google.com"), ("id_token", try issuer.token(googleClaims(api)))])
            #expect(reply.status == .ok, "\(reply.text)")
            #expect(reply.string("federatedId") == "https://accounts.google.com/1093")
            #expect(reply.string("photoUrl") == "https://example.com/ada.png")
            #expect(reply.string("fullName") == "Ada Lovelace")
            #expect(reply["isNewUser"] == .bool(true))
            let now = api.clock.now().secondsSince1970
            let oidc: [String: JSONValue] = [
                "iss": .string(issuer.issuer), "aud": ["corp-client", "other"], "sub": "emp-7", "iat": .number(Double(now)),
                "exp": .number(Double(now + 300)), "nonce": "n-1", "email": "grace@corp.example", "email_verified": true,
            ]
            let corp = try await api.signInWithIdp(
                [("providerId", "oidc.corp"), ("id_token", try issuer.token(oidc)), ("nonce", "n-1")], path: Path.verifyAssertion)
            #expect(corp.status == .ok, "\(corp.text)")
            #expect(corp.string("providerId") == "oidc.corp")
            #expect(corp.string("federatedId") == "emp-7")
            let claims = try JWT.part(try #require(corp.string("idToken")), 1)
            #expect(claims["firebase"]?["sign_in_provider"]?.stringValue == "oidc.corp")
        }
    }

    @Test(
        "a token that does not verify is refused with Firebase's error",
        arguments: [
            ("wrong issuer", "INVALID_IDP_RESPONSE"), ("wrong audience", "INVALID_IDP_RESPONSE"), ("expired", "INVALID_IDP_RESPONSE"),
            ("unknown kid", "INVALID_IDP_RESPONSE"), ("bad signature", "INVALID_IDP_RESPONSE"), ("wrong nonce", "MISSING_OR_INVALID_NONCE"),
            ("missing nonce", "MISSING_OR_INVALID_NONCE"), ("alg none", "INVALID_IDP_RESPONSE"), ("not a JWT", "INVALID_IDP_RESPONSE"),
        ])
    func refusals(_ testCase: String, _ code: String) async throws {
        try await withIdentityProviders { api, issuer in
            var claims = appleClaims(api)
            var nonce = rawNonce
            var token: String?
            switch testCase {
            case "wrong issuer": claims["iss"] = "https://appleid.example.com"
            case "wrong audience": claims["aud"] = "com.someone.else"
            case "expired": claims["exp"] = .number(Double(api.clock.now().secondsSince1970 - 120))
            case "unknown kid": token = try issuer.token(claims, key: try StandInIssuer.newKey())
            case "bad signature": token = try issuer.token(claims, key: try StandInIssuer.newKey(), kid: issuer.key.kid)
            case "wrong nonce": nonce = "another nonce"
            case "missing nonce": nonce = ""
            case "alg none": token = try issuer.token(claims, alg: "none")
            default: token = "not.a.jwt"
            }
            var fields = [("providerId", "apple.com"), ("id_token", try token ?? issuer.token(claims))]
            if !nonce.isEmpty { fields.append(("nonce", nonce)) }
            let reply = try await api.signInWithIdp(fields)
            #expect(reply.status == .badRequest, "\(reply.text)")
            #expect(reply.errorCode == code, "\(reply.text)")
        }
    }

    @Test("disabled or unconfigured providers are OPERATION_NOT_ALLOWED; a missing postBody credential is refused")
    func disabledProvider() async throws {
        try await withIdentityProviders { api, issuer in
            let off = try await api.admin(.patch, "\(Path.defaultIdps)/google.com?updateMask=enabled", body: #"{"enabled":false}"#)
            #expect(off.status == .ok, "\(off.text)")
            #expect(off["enabled"] == .bool(false))
            let reply = try await api.signInWithIdp([("providerId", "google.com"), ("id_token", try issuer.token(googleClaims(api)))])
            #expect(reply.errorCode == "OPERATION_NOT_ALLOWED", "\(reply.text)")
            let unknown = try await api.signInWithIdp([("providerId", "oidc.nobody"), ("id_token", try issuer.token(googleClaims(api)))])
            #expect(unknown.errorCode == "OPERATION_NOT_ALLOWED", "\(unknown.text)")
            let facebook = try await api.signInWithIdp([("providerId", "facebook.com"), ("access_token", "EAAB")])
            #expect(facebook.errorCode == "OPERATION_NOT_ALLOWED", "\(facebook.text)")
            let bare = try await api.signInWithIdp([("providerId", "apple.com")])
            #expect(bare.errorCode == "INVALID_CREDENTIAL_OR_PROVIDER_ID", "\(bare.text)")
            let noProvider = try await api.signInWithIdp([("id_token", "x")])
            #expect(noProvider.errorCode == "INVALID_CREDENTIAL_OR_PROVIDER_ID", "\(noProvider.text)")
        }
    }

    @Test("linking with idToken attaches the identity; another account's identity is FEDERATED_USER_ID_ALREADY_LINKED")
    func linking() async throws {
        try await withIdentityProviders { api, issuer in
            let phoneUser = try await api.signIn(alice)
            let token = try issuer.token(googleClaims(api))
            let linked = try await api.signInWithIdp([("providerId", "google.com"), ("id_token", token)], idToken: phoneUser.idToken)
            #expect(linked.status == .ok, "\(linked.text)")
            #expect(linked.string("localId") == phoneUser.localId)
            #expect(linked["isNewUser"] == .bool(false))
            let claims = try JWT.part(try #require(linked.string("idToken")), 1)
            #expect(claims["firebase"]?["identities"]?["google.com"] == ["1093"])
            #expect(claims["firebase"]?["identities"]?["phone"] == [.string(alice)])
            #expect(claims["email"]?.stringValue == "ada@gmail.com")
            let other = try await api.signIn(bob)
            let taken = try await api.signInWithIdp(
                [("providerId", "google.com"), ("id_token", token)], idToken: other.idToken, returnIdpCredential: false)
            #expect(taken.errorCode == "FEDERATED_USER_ID_ALREADY_LINKED", "\(taken.text)")
            // Asking for the provider's credential, the SDKs get it beside the error, in a 200 answer.
            let withCredential = try await api.signInWithIdp([("providerId", "google.com"), ("id_token", token)], idToken: other.idToken)
            #expect(withCredential.status == .ok, "\(withCredential.text)")
            #expect(withCredential.string("errorMessage") == "FEDERATED_USER_ID_ALREADY_LINKED")
            #expect(withCredential.string("oauthIdToken") == token)
            #expect(withCredential.string("idToken") == nil)
            // The Google account's email belongs to the first account now.
            let sameEmail = try await api.signInWithIdp(
                [("providerId", "google.com"), ("id_token", try issuer.token(googleClaims(api, sub: "2000")))], idToken: other.idToken,
                returnIdpCredential: false)
            #expect(sameEmail.errorCode == "EMAIL_EXISTS", "\(sameEmail.text)")
            // Signing in with the identity lands on the account it was linked to.
            let signIn = try await api.signInWithIdp([("providerId", "google.com"), ("id_token", token)])
            #expect(signIn.string("localId") == phoneUser.localId)
            // Unlinked by the user, it signs in to a new account.
            let unlinked = try await api.postRaw(
                Path.v1 + "/accounts:update", #"{"idToken":"\#(try #require(signIn.string("idToken")))","deleteProvider":["google.com"]}"#)
            #expect(unlinked.status == .ok, "\(unlinked.text)")
            #expect(!(unlinked["providerUserInfo"]?.arrayValue ?? []).contains { $0["providerId"]?.stringValue == "google.com" })
            let lookup = try await api.lookup(phoneUser.idToken)
            #expect(!lookup.providerIDs().contains("google.com"), "\(lookup.text)")
        }
    }

    @Test("an unverified provider email of an existing account needs confirmation; a verified one links and drops the unproven password")
    func emailMatches() async throws {
        try await withIdentityProviders { api, issuer in
            let owner = try await api.signUp("ada@gmail.com")
            let unverified = try await api.signInWithIdp([
                ("providerId", "google.com"), ("id_token", try issuer.token(googleClaims(api, verified: false))),
            ])
            #expect(unverified.status == .ok, "\(unverified.text)")
            #expect(unverified["needConfirmation"] == .bool(true))
            // As Firebase answers it: the existing account's ID, without tokens.
            #expect(unverified.string("localId") == owner.localId)
            #expect(unverified.string("idToken") == nil)
            #expect(unverified.string("refreshToken") == nil)
            // The pending token links the identity once the user signed in to the account another way.
            let pending = try #require(unverified.string("pendingToken"))
            let forged = try await api.postRaw(
                Path.signInWithIdp, #"{"requestUri":"http://localhost","postBody":"providerId=google.com","pendingToken":"AQZ-forged"}"#)
            #expect(forged.errorCode == "INVALID_PENDING_TOKEN", "\(forged.text)")
            let signedIn = try await api.signInWithPassword("ada@gmail.com", "correct horse")
            let session = try #require(signedIn.string("idToken"))
            let body = #"{"requestUri":"http://localhost","postBody":"providerId=google.com","pendingToken":"\#(pending)","idToken":"\#(session)"}"#
            let linked = try await api.postRaw(Path.signInWithIdp, body)
            #expect(linked.status == .ok, "\(linked.text)")
            #expect(linked.string("localId") == owner.localId)
            #expect(try await api.adminAccount(owner.localId)?["providerUserInfo"]?.arrayValue?.contains { $0["providerId"] == "google.com" } == true)
            // Once linked, the account's password is its own: a later Google sign-in lands on the account and keeps it.
            let unlink = try await api.postRaw(
                Path.v1 + "/accounts:update", #"{"idToken":"\#(try #require(linked.string("idToken")))","deleteProvider":["google.com"]}"#)
            #expect(unlink.status == .ok, "\(unlink.text)")
            let verified = try await api.signInWithIdp([("providerId", "google.com"), ("id_token", try issuer.token(googleClaims(api)))])
            #expect(verified.status == .ok, "\(verified.text)")
            #expect(verified.string("localId") == owner.localId)
            #expect(verified["isNewUser"] == .bool(false))
            // The password was set by someone who never proved the address: it is gone, and so are its sessions.
            let password = try await api.signInWithPassword("ada@gmail.com", "correct horse")
            #expect(password.status == .badRequest)
            let old = try await api.refresh(owner.refreshToken)
            #expect(old.status == .badRequest)
            let account = try #require(try await api.adminAccount(owner.localId))
            #expect(account["emailVerified"] == .bool(true))
        }
    }

    @Test("re-authentication (autoCreate false) creates no account")
    func reauthentication() async throws {
        try await withIdentityProviders { api, issuer in
            let postBody = "providerId=google.com&id_token=\(try issuer.token(googleClaims(api)))"
            let body = #"{"requestUri":"http://localhost","postBody":"\#(postBody)","returnSecureToken":true,"autoCreate":false}"#
            let unknown = try await api.postRaw(Path.signInWithIdp, body)
            #expect(unknown.errorCode == "USER_NOT_FOUND", "\(unknown.text)")
            let created = try await api.signInWithIdp([("providerId", "google.com"), ("id_token", try issuer.token(googleClaims(api)))])
            let again = try await api.postRaw(Path.signInWithIdp, body)
            #expect(again.status == .ok, "\(again.text)")
            #expect(again.string("localId") == created.string("localId"))
        }
    }

    @Test("a disabled account cannot sign in with its identity")
    func disabledAccount() async throws {
        try await withIdentityProviders { api, issuer in
            let token = try issuer.token(googleClaims(api))
            let first = try await api.signInWithIdp([("providerId", "google.com"), ("id_token", token)])
            let localID = try #require(first.string("localId"))
            let disabled = try await api.admin(Path.adminUpdate, ["localId": .string(localID), "disableUser": true])
            #expect(disabled.status == .ok, "\(disabled.text)")
            let reply = try await api.signInWithIdp([("providerId", "google.com"), ("id_token", token)])
            #expect(reply.errorCode == "USER_DISABLED", "\(reply.text)")
        }
    }

    @Test("a token signed with a rotated-in key is accepted after the keys are fetched again")
    func keyRotation() async throws {
        try await withIdentityProviders { api, issuer in
            let first = try await api.signInWithIdp([("providerId", "google.com"), ("id_token", try issuer.token(googleClaims(api)))])
            #expect(first.status == .ok, "\(first.text)")
            let fetches = issuer.fetches
            let rotated = try StandInIssuer.newKey()
            issuer.publish(rotated)
            // Within the refetch pause the cached set is used: unknown kid.
            let early = try await api.signInWithIdp([("providerId", "google.com"), ("id_token", try issuer.token(googleClaims(api), key: rotated))])
            #expect(early.errorCode == "INVALID_IDP_RESPONSE", "\(early.text)")
            api.clock.advance(by: .seconds(31))
            let later = try await api.signInWithIdp([("providerId", "google.com"), ("id_token", try issuer.token(googleClaims(api), key: rotated))])
            #expect(later.status == .ok, "\(later.text)")
            #expect(issuer.fetches == fetches + 1)
        }
    }

    @Test("an account with a second factor gets the challenge instead of tokens, as the other first factors")
    func secondFactor() async throws {
        try await withIdentityProviders { api, issuer in
            try await api.enableMFA()
            let token = try issuer.token(googleClaims(api))
            let first = try await api.signInWithIdp([("providerId", "google.com"), ("id_token", token)])
            let localID = try #require(first.string("localId"))
            let user = SignedIn(
                idToken: try #require(first.string("idToken")), refreshToken: try #require(first.string("refreshToken")), localId: localID,
                reply: first)
            let enrolled = try await api.enrollPhone(user, alice)
            #expect(enrolled.status == .ok, "\(enrolled.text)")
            let lastLogin = try #require(try await api.adminAccount(localID))["lastLoginAt"]
            api.clock.advance(by: .seconds(5))
            let reply = try await api.signInWithIdp([("providerId", "google.com"), ("id_token", token)])
            #expect(try await api.adminAccount(localID)?["lastLoginAt"] == lastLogin, "no sign-in before the second factor")
            #expect(reply.status == .ok, "\(reply.text)")
            #expect(reply.string("idToken") == nil)
            #expect(reply.string("mfaPendingCredential") != nil)
            #expect(reply["mfaInfo"]?.arrayValue?.count == 1)
            #expect(reply.string("localId") == localID)
        }
    }

    @Test("createAuthUri lists the provider for the email it gave")
    func signInMethods() async throws {
        try await withIdentityProviders { api, issuer in
            let first = try await api.signInWithIdp([
                ("providerId", "apple.com"), ("id_token", try issuer.token(appleClaims(api))), ("nonce", rawNonce),
            ])
            #expect(first.status == .ok, "\(first.text)")
            let reply = try await api.post(Path.createAuthURI, ["identifier": "x1y2@privaterelay.appleid.com", "continueUri": "http://localhost/"])
            #expect(reply["registered"] == .bool(true))
            #expect(reply["signinMethods"] == .array(["apple.com"]))
        }
    }

    @Test("sign-ins that need the keys at once wait for one fetch, and later ones use the cached set")
    func oneFetch() async throws {
        try await withIdentityProviders { api, issuer in
            let token = try issuer.token(googleClaims(api))
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for _ in 0..<6 { group.addTask { try await api.signInWithIdp([("providerId", "google.com"), ("id_token", token)]).status } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.allSatisfy { $0 == .ok })
            #expect(issuer.fetches == 1)
            _ = try await api.signInWithIdp([("providerId", "google.com"), ("id_token", token)])
            #expect(issuer.fetches == 1)
        }
    }

    @Test("Cache-Control max-age bounds how long a key set is kept")
    func cacheControl() {
        #expect(ProviderKeys.maxAge("public, max-age=21600, must-revalidate") == 21_600)
        #expect(ProviderKeys.maxAge("max-age=5") == 60)
        #expect(ProviderKeys.maxAge("max-age=99999999") == 86_400)
        #expect(ProviderKeys.maxAge("no-store") == 60)
        #expect(ProviderKeys.maxAge("public") == nil)
        #expect(ProviderKeys.maxAge(nil) == nil)
    }

    @Test("the operator's path needs the admin credential")
    func operatorPath() async throws {
        try await withIdentityProviders { api, issuer in
            let path = "\(Path.v1)/projects/\(project)/accounts:signInWithIdp"
            let client = try await api.signInWithIdp([("providerId", "google.com"), ("id_token", try issuer.token(googleClaims(api)))], path: path)
            #expect(client.status != .ok, "\(client.text)")
            let postBody = "providerId=google.com&id_token=\(try issuer.token(googleClaims(api)))"
            let body = #"{"requestUri":"http://localhost","postBody":"\#(postBody)","returnSecureToken":true}"#
            let admin = try await api.admin(.post, path, body: body)
            #expect(admin.status == .ok, "\(admin.text)")
            #expect(admin.string("providerId") == "google.com")
        }
    }
}
