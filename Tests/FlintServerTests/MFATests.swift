import FlintCore
import FlintServer
import FlintServerTestSupport
import FlintTesting
import Foundation
import HTTPTypes
import Testing

extension Path {
    static let enrollStart = "\(v2)/mfaEnrollment:start"
    static let enrollFinalize = "\(v2)/mfaEnrollment:finalize"
    static let withdraw = "\(v2)/mfaEnrollment:withdraw"
    static let mfaStart = "\(v2)/mfaSignIn:start"
    static let mfaFinalize = "\(v2)/mfaSignIn:finalize"
}

extension API {
    /// Turns MFA on: SMS, and TOTP with ±`adjacent` steps.
    func enableMFA(state: String = "ENABLED", adjacent: Int = 1) async throws {
        let body = #"""
            {"mfa":{"state":"\#(state)","enabledProviders":["PHONE_SMS"],
            "providerConfigs":[{"state":"ENABLED","totpProviderConfig":{"adjacentIntervals":\#(adjacent)}}]}}
            """#
        try await patchConfig(body, mask: "mfa")
    }

    /// Enrols `phone` as an SMS second factor for the signed-in user; returns the finalize answer.
    func enrollPhone(_ user: SignedIn, _ phone: String, name: String? = nil) async throws -> Reply {
        let start = try await postJSON(Path.enrollStart, ["idToken": user.idToken, "phoneEnrollmentInfo": ["phoneNumber": phone]])
        #expect(start.status == .ok, "\(start.text)")
        let sessionInfo = try #require(start["phoneSessionInfo"]?["sessionInfo"]?.stringValue)
        let code = try await pendingCode(for: phone.filter { $0 == "+" || $0.isNumber })
        var body: [String: Any] = ["idToken": user.idToken, "phoneVerificationInfo": ["sessionInfo": sessionInfo, "code": code]]
        if let name { body["displayName"] = name }
        return try await postJSON(Path.enrollFinalize, body)
    }

    /// Enrols `phone` as an SMS second factor with a pending credential (an enrolment that is due before any
    /// tokens); returns the finalize answer.
    func enrollPhone(pending: String, _ phone: String) async throws -> Reply {
        let start = try await postJSON(Path.enrollStart, ["mfaPendingCredential": pending, "phoneEnrollmentInfo": ["phoneNumber": phone]])
        let sessionInfo = try #require(start["phoneSessionInfo"]?["sessionInfo"]?.stringValue, "\(start.text)")
        let code = try await pendingCode(for: phone)
        return try await postJSON(
            Path.enrollFinalize, ["mfaPendingCredential": pending, "phoneVerificationInfo": ["sessionInfo": sessionInfo, "code": code]])
    }

    /// Finishes a first factor's challenge (its answer `challenged`) with the code texted to `phone`, the account's first
    /// factor: `mfaSignIn:start`, then `mfaSignIn:finalize`; returns finalize's answer.
    func finishWithPhone(_ challenged: Reply, _ phone: String) async throws -> Reply {
        let pending = try #require(challenged.string("mfaPendingCredential"), "\(challenged.text)")
        let hint = try #require(challenged["mfaInfo"]?.arrayValue?.first?["mfaEnrollmentId"]?.stringValue, "\(challenged.text)")
        let start = try await postJSON(Path.mfaStart, ["mfaPendingCredential": pending, "mfaEnrollmentId": hint])
        let sessionInfo = try #require(start["phoneResponseInfo"]?["sessionInfo"]?.stringValue, "\(start.text)")
        let code = try await pendingCode(for: phone)
        return try await postJSON(
            Path.mfaFinalize, ["mfaPendingCredential": pending, "phoneVerificationInfo": ["sessionInfo": sessionInfo, "code": code]])
    }

    /// The current TOTP code of a base32 secret at the test clock's time, `offset` steps away.
    func totpCode(_ base32: String, offset: Int64 = 0) throws -> String {
        let secret = try #require(Base32.decode(base32))
        let step = TOTP.step(at: clock.now().secondsSince1970, period: 30) + offset
        return TOTP.code(secret: secret, step: step, parameters: TOTPParameters())
    }
}

extension API {
    /// The session a finalize answer carries (it has no `localId`).
    static func signedIn(_ reply: Reply, localId: String) throws -> SignedIn {
        SignedIn(
            idToken: try #require(reply.string("idToken")), refreshToken: try #require(reply.string("refreshToken")), localId: localId,
            reply: reply)
    }
}

@Suite("Multi-factor authentication")
struct MFATests {
    @Test("SMS second factor: enrol, then sign in through the resolver flow; tokens carry the second-factor claims")
    func smsFlow() async throws {
        try await withFlint { api in
            try await api.enableMFA()
            let user = try await api.signInWithEmailLink("mfa@example.com")
            let enrolled = try await api.enrollPhone(user, "+1 650-555-0111", name: "Work phone")
            #expect(enrolled.status == .ok, "\(enrolled.text)")
            let codes = try #require(enrolled["recoveryCodes"]?.arrayValue)
            #expect(codes.count == 10)
            let enrolledToken = try #require(enrolled.string("idToken"))
            let claims = try JWT.payload(enrolledToken)
            #expect(claims["firebase"]?["sign_in_second_factor"]?.stringValue == "phone")
            let enrollmentID = try #require(claims["firebase"]?["second_factor_identifier"]?.stringValue)
            let account = try #require(try await api.lookup(enrolledToken)["users"]?.arrayValue?.first)
            let info = try #require(account["mfaInfo"]?.arrayValue?.first)
            #expect(info["phoneInfo"]?.stringValue == "+16505550111")
            #expect(info["displayName"]?.stringValue == "Work phone")
            #expect(info["mfaEnrollmentId"]?.stringValue == enrollmentID)

            // Sign in again: the first factor gets a pending credential and hints, not tokens.
            _ = try await api.sendSignInLink("mfa@example.com")
            let oob = try await api.oobCode(for: "mfa@example.com").code
            let first = try await api.post(Path.emailLinkSignIn, ["email": "mfa@example.com", "oobCode": oob])
            #expect(first.status == .ok)
            #expect(first["idToken"] == nil)
            #expect(first["refreshToken"] == nil)
            let pending = try #require(first.string("mfaPendingCredential"))
            let hint = try #require(first["mfaInfo"]?.arrayValue?.first)
            #expect(hint["phoneInfo"]?.stringValue == "+*******0111")
            #expect(hint["unobfuscatedPhoneInfo"] == nil)
            #expect(hint["mfaEnrollmentId"]?.stringValue == enrollmentID)

            let started = try await api.postJSON(
                Path.mfaStart, ["mfaPendingCredential": pending, "mfaEnrollmentId": enrollmentID, "phoneSignInInfo": ["phoneNumber": "+*******0111"]])
            let sessionInfo = try #require(started["phoneResponseInfo"]?["sessionInfo"]?.stringValue, "\(started.text)")
            let code = try await api.pendingCode(for: "+16505550111")
            let done = try await api.postJSON(
                Path.mfaFinalize, ["mfaPendingCredential": pending, "phoneVerificationInfo": ["sessionInfo": sessionInfo, "code": code]])
            #expect(done.status == .ok, "\(done.text)")
            let signedIn = try JWT.payload(try #require(done.string("idToken")))
            #expect(signedIn["firebase"]?["sign_in_provider"]?.stringValue == "password")
            #expect(signedIn["firebase"]?["sign_in_second_factor"]?.stringValue == "phone")
            #expect(signedIn["firebase"]?["second_factor_identifier"]?.stringValue == enrollmentID)
            let refreshed = try await api.refresh(try #require(done.string("refreshToken")))
            let again = try JWT.payload(try #require(refreshed.string("id_token")))
            #expect(again["firebase"]?["sign_in_second_factor"]?.stringValue == "phone")
            // A credential change re-issues the session with its second factor kept.
            let changed = try await api.post(Path.update, ["idToken": try #require(done.string("idToken")), "password": "password9"])
            let kept = try JWT.payload(try #require(changed.string("idToken")))
            #expect(kept["firebase"]?["sign_in_second_factor"]?.stringValue == "phone")
            #expect(kept["firebase"]?["second_factor_identifier"]?.stringValue == enrollmentID)

            // The password first factor is challenged the same way.
            let password = try await api.signInWithPassword("mfa@example.com", "password9")
            #expect(password.string("mfaPendingCredential") != nil)
            #expect(password["idToken"] == nil)
        }
    }

    @Test("enrolment rules: first factor, verified email, recent sign-in, duplicates, at most five, project switch")
    func enrollmentRules() async throws {
        try await withFlint { api in
            let early = try await api.signInWithEmailLink("early@example.com")
            let off = try await api.postJSON(Path.enrollStart, ["idToken": early.idToken, "phoneEnrollmentInfo": ["phoneNumber": "+16505550100"]])
            #expect(off.errorMessage == "OPERATION_NOT_ALLOWED : SMS based MFA not enabled.")
            try await api.enableMFA()

            let phoneUser = try await api.signIn("+16505550120")
            let phoneFirst = try await api.postJSON(
                Path.enrollStart, ["idToken": phoneUser.idToken, "phoneEnrollmentInfo": ["phoneNumber": "+16505550121"]])
            #expect(phoneFirst.errorMessage == "UNSUPPORTED_FIRST_FACTOR : MFA is not available for the given first factor.")

            let unverified = try await api.signUp("unverified@example.com", "password1")
            let refused = try await api.postJSON(
                Path.enrollStart, ["idToken": unverified.idToken, "phoneEnrollmentInfo": ["phoneNumber": "+16505550122"]])
            #expect(refused.errorMessage == "UNVERIFIED_EMAIL : Need to verify email first before enrolling second factors.")

            let user = try await api.signInWithEmailLink("rules@example.com")
            let noInfo = try await api.postJSON(Path.enrollStart, ["idToken": user.idToken])
            #expect(noInfo.errorCode == "INVALID_ARGUMENT")
            let firstFactor = try await api.enrollPhone(user, "+16505550130")
            #expect(firstFactor.status == .ok)
            // Enrolling ended the sessions that did not pass the factor; a new sign-in is challenged for it.
            let stale = try await api.postJSON(Path.enrollStart, ["idToken": user.idToken, "phoneEnrollmentInfo": ["phoneNumber": "+16505550139"]])
            #expect(stale.errorMessage == "TOKEN_EXPIRED")
            var session = try API.signedIn(firstFactor, localId: user.localId)
            let twice = try await api.postJSON(
                Path.enrollStart, ["idToken": session.idToken, "phoneEnrollmentInfo": ["phoneNumber": "+1 650 555 0130"]])
            #expect(twice.errorMessage == "SECOND_FACTOR_EXISTS : Phone number already enrolled as second factor for this account.")
            for n in 131...134 {
                let next = try await api.enrollPhone(session, "+1650555\(String(format: "%04d", n))")
                #expect(next.status == .ok)
                session = try API.signedIn(next, localId: user.localId)
            }
            let sixth = try await api.postJSON(
                Path.enrollStart, ["idToken": session.idToken, "phoneEnrollmentInfo": ["phoneNumber": "+16505550135"]])
            #expect(sixth.errorCode == "SECOND_FACTOR_LIMIT_EXCEEDED")

            let late = try await api.signInWithEmailLink("stale@example.com")
            api.clock.advance(by: .seconds(301))
            let old = try await api.postJSON(Path.enrollStart, ["idToken": late.idToken, "phoneEnrollmentInfo": ["phoneNumber": "+16505550140"]])
            #expect(old.errorCode == "CREDENTIAL_TOO_OLD_LOGIN_AGAIN")
        }
    }

    @Test("TOTP: enrol with the shared secret, sign in with a code once per step, within ±adjacentIntervals")
    func totp() async throws {
        try await withFlint { api in
            try await api.enableMFA(adjacent: 1)
            let user = try await api.signInWithEmailLink("totp@example.com")
            let start = try await api.postJSON(Path.enrollStart, ["idToken": user.idToken, "totpEnrollmentInfo": [String: String]()])
            let info = try #require(start["totpSessionInfo"], "\(start.text)")
            #expect(info["verificationCodeLength"]?.intValue == 6)
            #expect(info["hashingAlgorithm"]?.stringValue == "SHA1")
            #expect(info["periodSec"]?.intValue == 30)
            let secret = try #require(info["sharedSecretKey"]?.stringValue)
            let sessionInfo = try #require(info["sessionInfo"]?.stringValue)
            let wrong = try await api.postJSON(
                Path.enrollFinalize, ["idToken": user.idToken, "totpVerificationInfo": ["sessionInfo": sessionInfo, "verificationCode": "000000"]])
            let current = try api.totpCode(secret)
            #expect(wrong.errorMessage == "INVALID_CODE" || current == "000000")
            let enrolled = try await api.postJSON(
                Path.enrollFinalize,
                [
                    "idToken": user.idToken, "displayName": "Phone app",
                    "totpVerificationInfo": ["sessionInfo": sessionInfo, "verificationCode": try api.totpCode(secret)],
                ])
            #expect(enrolled.status == .ok, "\(enrolled.text)")
            let enrolledToken = try #require(enrolled.string("idToken"))
            let enrollmentID = try #require(try JWT.payload(enrolledToken)["firebase"]?["second_factor_identifier"]?.stringValue)

            func challenge() async throws -> String {
                _ = try await api.sendSignInLink("totp@example.com")
                let oob = try await api.oobCode(for: "totp@example.com").code
                let first = try await api.post(Path.emailLinkSignIn, ["email": "totp@example.com", "oobCode": oob])
                #expect(first["mfaInfo"]?.arrayValue?.first?["totpInfo"] != nil)
                return try #require(first.string("mfaPendingCredential"))
            }
            func finalize(_ pending: String, _ code: String) async throws -> Reply {
                try await api.postJSON(
                    Path.mfaFinalize,
                    ["mfaPendingCredential": pending, "mfaEnrollmentId": enrollmentID, "totpVerificationInfo": ["verificationCode": code]])
            }
            // The enrolment code's step is used; one step later works, and only once.
            api.clock.advance(by: .seconds(30))
            let code = try api.totpCode(secret)
            let signedIn = try await finalize(try await challenge(), code)
            #expect(signedIn.status == .ok, "\(signedIn.text)")
            #expect(try JWT.payload(try #require(signedIn.string("idToken")))["firebase"]?["sign_in_second_factor"]?.stringValue == "totp")
            let replay = try await finalize(try await challenge(), code)
            #expect(replay.errorCode == "INVALID_CODE")
            // Clock skew: a code one step ahead is accepted, three steps away is not.
            api.clock.advance(by: .seconds(30))
            #expect(try await finalize(try await challenge(), try api.totpCode(secret, offset: 1)).status == .ok)
            api.clock.advance(by: .seconds(60))
            #expect(try await finalize(try await challenge(), try api.totpCode(secret, offset: 3)).errorCode == "INVALID_CODE")
        }
    }

    @Test("pending credentials: missing, forged, expired, and spent after five wrong codes")
    func pendingCredentials() async throws {
        try await withFlint { api in
            try await api.enableMFA()
            let user = try await api.signInWithEmailLink("pending@example.com")
            let enrolled = try API.signedIn(try await api.enrollPhone(user, "+16505550150"), localId: user.localId)
            _ = try await api.signUp("ignored@example.com", "password1")
            let update = try await api.post(Path.update, ["idToken": enrolled.idToken, "password": "password1"])
            #expect(update.status == .ok)
            let pending = try #require(try await api.signInWithPassword("pending@example.com", "password1").string("mfaPendingCredential"))
            #expect(
                try await api.postJSON(Path.mfaStart, ["mfaEnrollmentId": "x"]).errorMessage
                    == "MISSING_MFA_PENDING_CREDENTIAL : Request does not have MFA pending credential.")
            #expect(
                try await api.postJSON(Path.mfaStart, ["mfaPendingCredential": pending]).errorMessage
                    == "MISSING_MFA_ENROLLMENT_ID : No second factor identifier is provided.")
            #expect(try await api.postJSON(Path.mfaFinalize, [:]).errorMessage == "MISSING_CREDENTIAL : Please set MFA Pending Credential.")
            #expect(
                try await api.postJSON(Path.mfaStart, ["mfaPendingCredential": pending, "mfaEnrollmentId": "nope"]).errorCode
                    == "MFA_ENROLLMENT_NOT_FOUND")
            var forged = Array(pending)
            forged[forged.count / 2] = forged[forged.count / 2] == "A" ? "B" : "A"
            #expect(
                try await api.postJSON(Path.mfaStart, ["mfaPendingCredential": String(forged), "mfaEnrollmentId": "x"]).errorCode
                    == "INVALID_MFA_PENDING_CREDENTIAL")

            for _ in 0..<5 {
                let wrong = try await api.postJSON(Path.mfaFinalize, ["mfaPendingCredential": pending, "recoveryCode": "aaaa-bbbb-cccc"])
                #expect(wrong.errorCode == "INVALID_CODE")
            }
            let spent = try await api.postJSON(Path.mfaFinalize, ["mfaPendingCredential": pending, "recoveryCode": "aaaa-bbbb-cccc"])
            #expect(spent.errorCode == "INVALID_MFA_PENDING_CREDENTIAL")

            let later = try #require(try await api.signInWithPassword("pending@example.com", "password1").string("mfaPendingCredential"))
            api.clock.advance(by: .seconds(301))
            #expect(
                try await api.postJSON(Path.mfaStart, ["mfaPendingCredential": later, "mfaEnrollmentId": "x"]).errorCode
                    == "INVALID_MFA_PENDING_CREDENTIAL")
        }
    }

    @Test("concurrent finalize with one SMS code: exactly one signs in")
    func oneWinner() async throws {
        try await withFlint { api in
            try await api.enableMFA()
            let user = try await api.signInWithEmailLink("race@example.com")
            let enrolled = try await api.enrollPhone(user, "+16505550160")
            let enrolledToken = try #require(enrolled.string("idToken"))
            let enrollmentID = try #require(try JWT.payload(enrolledToken)["firebase"]?["second_factor_identifier"]?.stringValue)
            _ = try await api.post(Path.update, ["idToken": try #require(enrolled.string("idToken")), "password": "password1"])
            let pending = try #require(try await api.signInWithPassword("race@example.com", "password1").string("mfaPendingCredential"))
            let started = try await api.postJSON(Path.mfaStart, ["mfaPendingCredential": pending, "mfaEnrollmentId": enrollmentID])
            let sessionInfo = try #require(started["phoneResponseInfo"]?["sessionInfo"]?.stringValue)
            let code = try await api.pendingCode(for: "+16505550160")
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        try await api.postJSON(
                            Path.mfaFinalize, ["mfaPendingCredential": pending, "phoneVerificationInfo": ["sessionInfo": sessionInfo, "code": code]]
                        ).status
                    }
                }
                return try await group.reduce(into: [HTTPResponse.Status]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .ok }.count == 1)
        }
    }

    @Test("recovery codes sign in once each; regenerating replaces them; withdrawing the last factor ends MFA")
    func recoveryAndWithdraw() async throws {
        try await withFlint { api in
            try await api.enableMFA()
            let user = try await api.signInWithEmailLink("recover@example.com")
            let enrolled = try await api.enrollPhone(user, "+16505550170")
            let codes = (enrolled["recoveryCodes"]?.arrayValue ?? []).compactMap { $0.stringValue }
            try #require(codes.count == 10)
            let token = try #require(enrolled.string("idToken"))
            let enrollmentID = try #require(try JWT.payload(token)["firebase"]?["second_factor_identifier"]?.stringValue)
            _ = try await api.post(Path.update, ["idToken": token, "password": "password1"])

            let pending = try #require(try await api.signInWithPassword("recover@example.com", "password1").string("mfaPendingCredential"))
            let used = try await api.postJSON(Path.mfaFinalize, ["mfaPendingCredential": pending, "recoveryCode": codes[0].uppercased()])
            #expect(used.status == .ok, "\(used.text)")
            #expect(try JWT.payload(try #require(used.string("idToken")))["firebase"]?["sign_in_second_factor"]?.stringValue == "recovery_code")
            let pending2 = try #require(try await api.signInWithPassword("recover@example.com", "password1").string("mfaPendingCredential"))
            #expect(
                try await api.postJSON(Path.mfaFinalize, ["mfaPendingCredential": pending2, "recoveryCode": codes[0]]).errorCode == "INVALID_CODE")

            let fresh = try #require(used.string("idToken"))
            let regenerated = try await api.post("/flint/v1/accounts/mfaRecoveryCodes:regenerate", ["idToken": fresh])
            let newCodes = (regenerated["recoveryCodes"]?.arrayValue ?? []).compactMap { $0.stringValue }
            #expect(newCodes.count == 10)
            let oldCode = try await api.postJSON(Path.mfaFinalize, ["mfaPendingCredential": pending2, "recoveryCode": codes[1]])
            #expect(oldCode.errorCode == "INVALID_CODE")
            #expect(try await api.postJSON(Path.mfaFinalize, ["mfaPendingCredential": pending2, "recoveryCode": newCodes[1]]).status == .ok)

            api.clock.advance(by: .seconds(2))
            let withdrawn = try await api.post(Path.withdraw, ["idToken": fresh, "mfaEnrollmentId": enrollmentID])
            #expect(withdrawn.status == .ok, "\(withdrawn.text)")
            #expect(try JWT.payload(try #require(withdrawn.string("idToken")))["firebase"]?["sign_in_second_factor"] == nil)
            #expect(try await api.refresh(try #require(used.string("refreshToken"))).errorMessage == "TOKEN_EXPIRED")
            #expect(
                try await api.post(Path.withdraw, ["idToken": try #require(withdrawn.string("idToken")), "mfaEnrollmentId": enrollmentID]).errorCode
                    == "MFA_ENROLLMENT_NOT_FOUND")
            let plain = try await api.signInWithPassword("recover@example.com", "password1")
            #expect(plain.string("idToken") != nil)
            #expect(plain["mfaPendingCredential"] == nil)
        }
    }

    @Test("a phone number cannot be the first factor of an account with second factors")
    func phoneFirstFactorRefused() async throws {
        try await withFlint { api in
            try await api.enableMFA()
            let phoneUser = try await api.signIn("+16505550180")
            let linked = try await api.signInWithEmailLink("both@example.com", extra: ["idToken": phoneUser.idToken])
            #expect(try await api.enrollPhone(linked, "+16505550181").status == .ok)
            let send = try await api.post(Path.send, ["phoneNumber": "+16505550180"])
            #expect(send.errorMessage == "UNSUPPORTED_FIRST_FACTOR : A phone number cannot be set as a first factor on an SMS based MFA user.")
        }
    }

    @Test("MANDATORY: no tokens before a second factor is enrolled with the pending credential; then sign-ins are challenged")
    func mandatory() async throws {
        try await withFlint { api in
            try await api.enableMFA(state: "MANDATORY")
            // Sign-up gives a pending credential, not tokens; the unverified email must be verified first.
            let signUp = try await api.post(Path.signUp, ["email": "must@example.com", "password": "password1"])
            #expect(signUp.status == .ok, "\(signUp.text)")
            #expect(signUp["idToken"] == nil)
            #expect(signUp["mfaEnrollmentRequired"] == .bool(true))
            let pending = try #require(signUp.string("mfaPendingCredential"))
            let early = try await api.postJSON(
                Path.enrollStart, ["mfaPendingCredential": pending, "phoneEnrollmentInfo": ["phoneNumber": "+16505550190"]])
            #expect(early.errorCode == "UNVERIFIED_EMAIL")
            let verify = try await api.post(Path.sendOob, ["requestType": "VERIFY_EMAIL", "mfaPendingCredential": pending])
            #expect(verify.status == .ok, "\(verify.text)")
            let code = try await api.oobCode(for: "must@example.com").code
            #expect(try await api.post(Path.update, ["oobCode": code]).status == .ok)

            // Signing in again: still no tokens, but enrolment with the pending credential gives them.
            let again = try await api.signInWithPassword("must@example.com", "password1")
            #expect(again["idToken"] == nil)
            #expect(again["mfaInfo"] == .array([]))
            let pending2 = try #require(again.string("mfaPendingCredential"))
            let done = try await api.enrollPhone(pending: pending2, "+16505550190")
            #expect(done.status == .ok, "\(done.text)")
            let claims = try JWT.payload(try #require(done.string("idToken")))
            #expect(claims["firebase"]?["sign_in_second_factor"]?.stringValue == "phone")
            #expect(claims["firebase"]?["sign_in_provider"]?.stringValue == "password")
            let challenged = try await api.signInWithPassword("must@example.com", "password1")
            #expect(challenged["mfaInfo"]?.arrayValue?.count == 1)
            #expect(challenged["mfaEnrollmentRequired"] == nil)
            // A pending credential of an account that has a factor never enrols another one (password alone is not enough).
            let hijack = try await api.postJSON(
                Path.enrollStart,
                [
                    "mfaPendingCredential": try #require(challenged.string("mfaPendingCredential")),
                    "phoneEnrollmentInfo": ["phoneNumber": "+16505550199"],
                ])
            #expect(hijack.errorCode == "MISSING_ID_TOKEN")
            // A pending credential is not an ID token in ENABLED projects' enrolment.
            try await api.enableMFA(state: "ENABLED")
            let notHere = try await api.postJSON(
                Path.enrollStart, ["mfaPendingCredential": pending2, "phoneEnrollmentInfo": ["phoneNumber": "+16505550191"]])
            #expect(notHere.errorCode == "MISSING_ID_TOKEN")
        }
    }

    @Test("an SMS code sent for a second factor does not sign anyone in with signInWithPhoneNumber")
    func purposeBound() async throws {
        try await withFlint { api in
            try await api.enableMFA()
            let user = try await api.signInWithEmailLink("purpose@example.com")
            let start = try await api.postJSON(Path.enrollStart, ["idToken": user.idToken, "phoneEnrollmentInfo": ["phoneNumber": "+16505550195"]])
            let sessionInfo = try #require(start["phoneSessionInfo"]?["sessionInfo"]?.stringValue)
            let code = try await api.pendingCode(for: "+16505550195")
            let misuse = try await api.verify(sessionInfo, code: code)
            #expect(misuse.errorMessage == "INVALID_SESSION_INFO")
        }
    }
}
