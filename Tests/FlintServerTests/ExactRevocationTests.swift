import FlintCore
import FlintServerTestSupport
import FlintTesting
import Foundation
import HTTPTypes
import Testing

@testable import FlintServer

extension API {
    /// Expects `session`'s refresh token and ID token to be refused as revoked.
    func expectRevoked(_ session: SignedIn, _ comment: Comment, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        #expect(try await refresh(session.refreshToken).errorCode == "TOKEN_EXPIRED", comment, sourceLocation: sourceLocation)
        #expect(try await lookup(session.idToken).errorCode == "TOKEN_EXPIRED", comment, sourceLocation: sourceLocation)
    }

    /// Expects `session`'s tokens to work.
    func expectAlive(_ session: SignedIn, _ comment: Comment, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let refreshed = try await refresh(session.refreshToken)
        #expect(refreshed.status == .ok, comment, sourceLocation: sourceLocation)
        #expect(try await lookup(session.idToken).status == .ok, comment, sourceLocation: sourceLocation)
        if let idToken = refreshed.string("id_token") {
            #expect(try await lookup(idToken).status == .ok, "a refreshed ID token works too", sourceLocation: sourceLocation)
        }
    }

    /// An operator's `accounts:update`.
    func adminUpdate(_ fields: [String: String]) async throws -> Reply {
        try await admin(.post, "\(Path.v1)/projects/\(project)/accounts:update", body: try API.json(fields))
    }
}

/// Revocation is exact: the manual clock never moves in these tests unless said, so every token below is minted in
/// the same second as the revocation it faces.
@Suite("Exact revocation (tokens minted in the same second)")
struct ExactRevocationTests {
    @Test("an email-link takeover ends the squatter's password sessions minted in the same second, and their password")
    func takeoverInSameSecond() async throws {
        try await withFlint { api in
            let squatter = try await api.signUp("owner@example.com", "squatter-pass")
            let again = try Self.session(try await api.signInWithPassword("owner@example.com", "squatter-pass"))
            let owner = try await api.signInWithEmailLink("owner@example.com")
            #expect(owner.localId == squatter.localId, "the owner takes the account over")
            try await api.expectRevoked(squatter, "the squatter's sign-up session")
            try await api.expectRevoked(again, "the squatter's later password session")
            #expect(try await api.signInWithPassword("owner@example.com", "squatter-pass").errorCode == "INVALID_LOGIN_CREDENTIALS")
            try await api.expectAlive(owner, "the owner's session, minted after the revocation in the same second")
        }
    }

    @Test("a password change ends the other sessions of that second; the changing session gets working tokens")
    func passwordChange() async throws {
        try await withFlint { api in
            let first = try await api.signUp("me@example.com", "password1")
            let second = try Self.session(try await api.signInWithPassword("me@example.com", "password1"))
            let changed = try await api.post(Path.update, ["idToken": second.idToken, "password": "password2"])
            try await api.expectRevoked(first, "a session from before the change")
            try await api.expectRevoked(second, "the changing session's old tokens")
            try await api.expectAlive(try API.signedIn(changed, localId: first.localId), "the tokens the change answered")
            let after = try Self.session(try await api.signInWithPassword("me@example.com", "password2"))
            try await api.expectAlive(after, "a sign-in after the change")
        }
    }

    @Test("a password reset ends every session minted before it")
    func passwordReset() async throws {
        try await withFlint { api in
            let user = try await api.signUp("reset@example.com", "password1")
            #expect(try await api.post(Path.sendOob, ["requestType": "PASSWORD_RESET", "email": "reset@example.com"]).status == .ok)
            let code = try await api.oobCode(for: "reset@example.com").code
            #expect(try await api.post(Path.resetPassword, ["oobCode": code, "newPassword": "password2"]).status == .ok)
            try await api.expectRevoked(user, "the session from before the reset")
            try await api.expectAlive(try Self.session(try await api.signInWithPassword("reset@example.com", "password2")), "a later sign-in")
        }
    }

    @Test("the Admin SDKs' revokeRefreshTokens (validSince = the current second) ends sessions of that second, not later ones")
    func adminRevokeNow() async throws {
        try await withFlint { api in
            let before = try await api.signIn("+16505553434")
            let now = String(api.clock.now().secondsSince1970)
            #expect(try await api.adminUpdate(["localId": before.localId, "validSince": now]).status == .ok)
            try await api.expectRevoked(before, "a session of the same second, minted before")
            try await api.expectAlive(try await api.signIn("+16505553434"), "a session minted after, in the same second")
        }
    }

    @Test("an operator's validSince in the past ends only the sessions minted before it")
    func adminRevokePast() async throws {
        try await withFlint { api in
            let old = try await api.signIn("+16505553434")
            api.clock.advance(by: .seconds(10))
            let since = String(api.clock.now().secondsSince1970)
            let recent = try await api.signIn("+16505553434")
            api.clock.advance(by: .seconds(10))
            #expect(try await api.adminUpdate(["localId": old.localId, "validSince": since]).status == .ok)
            try await api.expectRevoked(old, "minted before validSince")
            try await api.expectAlive(recent, "minted at validSince")
            #expect(try await api.adminUpdate(["localId": old.localId, "validSince": "soon"]).status == .badRequest)
        }
    }

    @Test("disabling ends the sessions for good: re-enabling does not bring them back")
    func disableRevokes() async throws {
        try await withFlint { api in
            let user = try await api.signIn("+16505553434")
            #expect(try await api.adminUpdate(["localId": user.localId, "disableUser": "true"]).status == .ok)
            #expect(try await api.refresh(user.refreshToken).errorCode == "USER_DISABLED")
            #expect(try await api.adminUpdate(["localId": user.localId, "disableUser": "false"]).status == .ok)
            try await api.expectRevoked(user, "a session from before the account was disabled")
            try await api.expectAlive(try await api.signIn("+16505553434"), "a sign-in after re-enabling")
        }
    }

    @Test("enrolling and withdrawing a second factor end the account's other sessions of that second")
    func secondFactorChanges() async throws {
        try await withFlint { api in
            try await api.enableMFA()
            let other = try await api.signInWithEmailLink("mfa@example.com")
            let user = try await api.signInWithEmailLink("mfa@example.com")
            let enrolled = try await api.enrollPhone(user, "+1 650-555-0111")
            #expect(enrolled.status == .ok, "\(enrolled.text)")
            try await api.expectRevoked(other, "a session from before the enrolment")
            let enrolledSession = try API.signedIn(enrolled, localId: user.localId)
            try await api.expectAlive(enrolledSession, "the enrolling session")
            let factor = try #require(try JWT.payload(enrolledSession.idToken)["firebase"]?["second_factor_identifier"]?.stringValue)
            let withdrawn = try await api.postJSON(Path.withdraw, ["idToken": enrolledSession.idToken, "mfaEnrollmentId": factor])
            #expect(withdrawn.status == .ok, "\(withdrawn.text)")
            try await api.expectRevoked(enrolledSession, "the session from before the withdrawal")
            try await api.expectAlive(try API.signedIn(withdrawn, localId: user.localId), "the withdrawing session")
        }
    }

    @Test("a refresh token whose session was revoked answers TOKEN_EXPIRED, a forged one INVALID_REFRESH_TOKEN")
    func revokedRefreshAnswers() async throws {
        try await withFlint { api in
            let user = try await api.signIn("+16505553434")
            #expect(try await api.adminUpdate(["localId": user.localId, "validSince": String(api.clock.now().secondsSince1970)]).status == .ok)
            #expect(try await api.refresh(user.refreshToken).errorCode == "TOKEN_EXPIRED")
            #expect(try await api.refresh("AMf-" + String(repeating: "A", count: 80)).errorCode == "INVALID_REFRESH_TOKEN")
        }
    }

    @Test("a refresh token or sessionInfo re-encoded with a sibling last character is not ours: INVALID_REFRESH_TOKEN, INVALID_SESSION_INFO")
    func nonCanonicalSecrets() async throws {
        try await withFlint { api in
            let user = try await api.signIn("+16505553434")
            let sibling = try #require(Self.siblingSpelling(user.refreshToken), "the token's last character has unused bits")
            #expect(try await api.refresh(sibling).errorCode == "INVALID_REFRESH_TOKEN")
            #expect(try await api.refresh(user.refreshToken).status == .ok, "the token itself still works")
            let sessionInfo = try await api.sendCode("+16505550123")
            let code = try await api.pendingCode(for: "+16505550123")
            if let other = Self.siblingSpelling(sessionInfo) {
                #expect(try await api.verify(other, code: code).errorCode == "INVALID_SESSION_INFO")
            }
            #expect(try await api.verify(sessionInfo, code: code).status == .ok)
        }
    }

    /// `text` with its last base64url character's unused low bits set: the same bytes to a lenient decoder, another
    /// string to everything else; `nil` when the last character has no unused bits.
    static func siblingSpelling(_ text: String) -> String? {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        let body = text.hasPrefix("AMf-") ? String(text.dropFirst(4)) : text
        let unusedBits = [0: 0, 2: 4, 3: 2][body.count % 4] ?? 0
        guard unusedBits > 0, let last = body.last, let value = alphabet.firstIndex(of: last) else { return nil }
        return String(text.dropLast()) + String(alphabet[value | 1])
    }

    static func session(_ reply: Reply) throws -> SignedIn {
        #expect(reply.status == .ok, "\(reply.text)")
        return try API.signedIn(reply)
    }
}

@Suite("One MFA policy for every first factor")
struct FirstFactorGateTests {
    @Test("MANDATORY: a phone sign-in gets no tokens and creates no account; email-link and password sign-ins are challenged")
    func mandatoryPhone() async throws {
        try await withFlint { api in
            try await api.enableMFA(state: "MANDATORY")
            let sessionInfo = try await api.sendCode("+16505553434")
            let code = try await api.pendingCode(for: "+16505553434")
            let refused = try await api.verify(sessionInfo, code: code)
            #expect(refused.errorCode == "UNSUPPORTED_FIRST_FACTOR", "\(refused.text)")
            #expect(refused["idToken"] == nil)
            let listed = try await api.admin(.post, "\(Path.v1)/projects/\(project)/accounts:lookup", body: #"{"phoneNumber":["+16505553434"]}"#)
            #expect(listed["users"] == nil, "no account was created: \(listed.text)")

            let sent = try await api.sendSignInLink("new@example.com")
            #expect(sent.status == .ok)
            let link = try await api.post(
                Path.emailLinkSignIn, ["email": "new@example.com", "oobCode": try await api.oobCode(for: "new@example.com").code])
            #expect(link["idToken"] == nil)
            #expect(link["mfaEnrollmentRequired"] == .bool(true))
        }
    }

    @Test("signInWithPhoneNumber with an idToken cannot link a number as first factor onto an account with an SMS second factor")
    func linkingOntoEnrolledAccount() async throws {
        try await withFlint { api in
            try await api.enableMFA()
            let user = try await api.signInWithEmailLink("mfa@example.com")
            let enrolled = try await api.enrollPhone(user, "+1 650-555-0111")
            let session = try API.signedIn(enrolled, localId: user.localId)
            let sessionInfo = try await api.sendCode("+16505553434")
            let code = try await api.pendingCode(for: "+16505553434")
            let linked = try await api.verify(sessionInfo, code: code, extra: ["idToken": session.idToken])
            #expect(linked.errorCode == "UNSUPPORTED_FIRST_FACTOR", "\(linked.text)")
            let account = try #require(try await api.lookup(session.idToken)["users"]?.arrayValue?.first)
            #expect(account["phoneNumber"] == nil, "the number was not put on the account")
        }
    }
}
