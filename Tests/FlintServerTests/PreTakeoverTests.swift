import FlintCore
import FlintServerTestSupport
import FlintStore
import FlintTesting
import Foundation
import HTTPTypes
import Testing

@testable import FlintServer

/// An attacker signs in with a provider asserting the victim's email unverified, which makes an account with that
/// email; whichever way the victim later proves the address, the attacker's identity and sessions are gone.
@Suite("Account pre-takeover through an unverified provider email")
struct PreTakeoverTests {
    static let victim = "victim@example.com"

    /// An `oidc.corp` ID token for `sub` asserting `email`, verified or not, with `nonce`.
    static func corpToken(_ api: API, _ issuer: StandInIssuer, sub: String, email: String, verified: Bool, nonce: String) throws -> String {
        let now = api.clock.now().secondsSince1970
        return try issuer.token([
            "iss": .string(issuer.issuer), "aud": "corp-client", "sub": .string(sub), "iat": .number(Double(now)),
            "exp": .number(Double(now + 300)), "nonce": .string(nonce), "email": .string(email), "email_verified": .bool(verified),
            "name": "Mallory",
        ])
    }

    /// The attacker's sign-in: a new account holding the victim's email, unverified; its ID and session.
    static func attackerAccount(_ api: API, _ issuer: StandInIssuer) async throws -> SignedIn {
        let token = try corpToken(api, issuer, sub: "mallory", email: victim, verified: false, nonce: "m-1")
        let reply = try await api.signInWithIdp([("providerId", "oidc.corp"), ("id_token", token), ("nonce", "m-1")])
        #expect(reply.status == .ok, "\(reply.text)")
        #expect(reply["isNewUser"] == .bool(true))
        #expect(reply["emailVerified"] == .bool(false) || reply["emailVerified"] == nil)
        return try API.signedIn(reply)
    }

    /// After the victim proved the address: the attacker's session and identity no longer reach the account.
    static func expectAttackerLockedOut(_ api: API, _ issuer: StandInIssuer, attacker: SignedIn, nonce: String) async throws {
        #expect(try await api.refresh(attacker.refreshToken).status != .ok, "the attacker's refresh token is refused")
        let account = try #require(try await api.adminAccount(attacker.localId))
        let providers = account["providerUserInfo"]?.arrayValue?.compactMap { $0["providerId"]?.stringValue } ?? []
        #expect(!providers.contains("oidc.corp"), "the attacker's identity is unlinked: \(providers)")
        #expect(account["emailVerified"] == .bool(true))
        let again = try await api.signInWithIdp([
            ("providerId", "oidc.corp"), ("id_token", try corpToken(api, issuer, sub: "mallory", email: victim, verified: false, nonce: nonce)),
            ("nonce", nonce),
        ])
        if let idToken = again.string("idToken") {
            #expect(try JWT.payload(idToken)["sub"]?.stringValue != attacker.localId, "the attacker's provider does not sign in to the account")
        } else {
            #expect(again["needConfirmation"] == .bool(true), "\(again.text)")
        }
    }

    @Test("the victim signs in by email link: the attacker's identity is unlinked and their session ended")
    func emailLink() async throws {
        try await withIdentityProviders { api, issuer in
            let attacker = try await Self.attackerAccount(api, issuer)
            let victim = try await api.signInWithEmailLink(Self.victim)
            #expect(victim.localId == attacker.localId, "the address's account")
            try await Self.expectAttackerLockedOut(api, issuer, attacker: attacker, nonce: "m-2")
            #expect(try await api.refresh(victim.refreshToken).status == .ok, "the victim's own session lives")
        }
    }

    @Test("the victim follows a verification link: the attacker's identity is unlinked and their session ended")
    func verifyEmail() async throws {
        try await withIdentityProviders { api, issuer in
            let attacker = try await Self.attackerAccount(api, issuer)
            #expect(try await api.post(Path.sendOob, ["requestType": "VERIFY_EMAIL", "idToken": attacker.idToken]).status == .ok)
            let code = try await api.oobCode(for: Self.victim).code
            let applied = try await api.post(Path.update, ["oobCode": code])
            #expect(applied.status == .ok, "\(applied.text)")
            try await Self.expectAttackerLockedOut(api, issuer, attacker: attacker, nonce: "m-2")
        }
    }

    @Test("the victim resets the password and signs in: the attacker's identity is unlinked and their session ended")
    func passwordReset() async throws {
        try await withIdentityProviders { api, issuer in
            let attacker = try await Self.attackerAccount(api, issuer)
            #expect(try await api.post(Path.sendOob, ["requestType": "PASSWORD_RESET", "email": Self.victim]).status == .ok)
            let code = try await api.oobCode(for: Self.victim).code
            let reset = try await api.post(Path.resetPassword, ["oobCode": code, "newPassword": "victim's own"])
            #expect(reset.status == .ok, "\(reset.text)")
            let signedIn = try await api.signInWithPassword(Self.victim, "victim's own")
            #expect(signedIn.string("localId") == attacker.localId)
            try await Self.expectAttackerLockedOut(api, issuer, attacker: attacker, nonce: "m-2")
        }
    }

    @Test("the operator marks the email verified: the attacker's identity is unlinked and their session ended")
    func operatorVerifies() async throws {
        try await withIdentityProviders { api, issuer in
            let attacker = try await Self.attackerAccount(api, issuer)
            let update = try await api.admin(Path.adminUpdate, ["localId": .string(attacker.localId), "emailVerified": true])
            #expect(update.status == .ok, "\(update.text)")
            try await Self.expectAttackerLockedOut(api, issuer, attacker: attacker, nonce: "m-2")
        }
    }

    @Test("the operator marks the email verified sending the same address with it: the same as emailVerified alone")
    func operatorVerifiesWithAddress() async throws {
        try await withIdentityProviders { api, issuer in
            let attacker = try await Self.attackerAccount(api, issuer)
            let update = try await api.admin(
                Path.adminUpdate, ["localId": .string(attacker.localId), "email": .string(Self.victim), "emailVerified": true])
            #expect(update.status == .ok, "\(update.text)")
            try await Self.expectAttackerLockedOut(api, issuer, attacker: attacker, nonce: "m-2")
        }
    }

    @Test("Apple's email_verified \"false\" (a string) confers nothing either: an email link unlinks it")
    func appleStringFalse() async throws {
        try await withIdentityProviders { api, issuer in
            var claims = appleClaims(api, email: Self.victim)
            claims["email_verified"] = "false"
            claims["is_private_email"] = "false"
            let apple = try await api.signInWithIdp([("providerId", "apple.com"), ("id_token", try issuer.token(claims)), ("nonce", rawNonce)])
            #expect(apple.status == .ok, "\(apple.text)")
            let attacker = try API.signedIn(apple)
            let victim = try await api.signInWithEmailLink(Self.victim)
            #expect(victim.localId == attacker.localId)
            #expect(try await api.refresh(attacker.refreshToken).status != .ok)
            let providers = try #require(try await api.adminAccount(attacker.localId))["providerUserInfo"]?.arrayValue ?? []
            #expect(providers.allSatisfy { $0["providerId"]?.stringValue != "apple.com" })
        }
    }

    @Test("a user verifying the address they signed up with keeps their session and password")
    func ordinaryVerificationKeepsSessions() async throws {
        try await withFlint { api in
            let user = try await api.signUp("own@example.com", "password1")
            #expect(try await api.post(Path.sendOob, ["requestType": "VERIFY_EMAIL", "idToken": user.idToken]).status == .ok)
            let code = try await api.oobCode(for: "own@example.com").code
            #expect(try await api.post(Path.update, ["oobCode": code]).status == .ok)
            #expect(try await api.refresh(user.refreshToken).status == .ok)
            #expect(try await api.signInWithPassword("own@example.com", "password1").status == .ok)
        }
    }
}
