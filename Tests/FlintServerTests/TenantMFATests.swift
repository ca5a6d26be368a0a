import FlintCore
import FlintServerTestSupport
import FlintTesting
import Foundation
import HTTPTypes
import Testing

@testable import FlintServer

/// Second factors and passkeys in tenants (issue 32): enrolment and sign-in run in the request's tenant (or the one its
/// ID token or pending credential carries), under the tenant's own `mfaConfig` and test numbers, and nothing of tenant
/// A reaches a factor, a credential or a code of tenant B's users.
@Suite("Tenants: second factors and passkeys, isolated per tenant")
struct TenantMFATests {
    /// Each tenant's fictional number and its fixed code.
    static let numberA = "+15555550101"
    static let codeA = "111111"
    static let numberB = "+15555550102"
    static let codeB = "222222"

    /// A tenant document allowing passwords, with MFA in `state` (SMS and TOTP) and one fictional number.
    static func tenantDocument(_ name: String, state: String = "ENABLED", number: String, code: String) -> String {
        #"""
        {"displayName":"\#(name)","allowPasswordSignup":true,"testPhoneNumbers":{"\#(number)":"\#(code)"},
        "mfaConfig":{"state":"\#(state)","enabledProviders":["PHONE_SMS"],
        "providerConfigs":[{"state":"ENABLED","totpProviderConfig":{"adjacentIntervals":1}}]}}
        """#
    }

    /// Runs `body` against a node on a fresh `engine` store with tenants A and B, both with MFA on.
    private func withTenants(_ engine: StoreEngine, _ body: @escaping @Sendable (API, _ a: String, _ b: String) async throws -> Void) async throws {
        let settings: (inout ServerSettings) -> Void = { $0.passwordHashParameters = PasswordHashParameters(logN: 10) }
        try await engine.serve(try await engine.freshLocation(), configure: settings) { api in
            let a = try await TenantTests.create(api, Self.tenantDocument("tenant-a", number: Self.numberA, code: Self.codeA))
            let b = try await TenantTests.create(api, Self.tenantDocument("tenant-b", number: Self.numberB, code: Self.codeB))
            try await body(api, a, b)
        }
    }

    /// POSTs `fields` (with `tenantId` unless `tenant` is `nil`) to `path` with the API key.
    static func call(_ api: API, _ path: String, _ fields: [String: JSONValue], tenant: String?) async throws -> Reply {
        var fields = fields
        if let tenant { fields["tenantId"] = .string(tenant) }
        return try await api.postRaw(path, String(decoding: JSONValue.object(fields).serialized(), as: UTF8.self))
    }

    /// An account of `tenant` with a verified email, created by the operator, signed in with its password there.
    static func verifiedUser(_ api: API, _ email: String, tenant: String) async throws -> SignedIn {
        let created = try await api.admin(
            .post, "\(Path.v1)/projects/\(project)/tenants/\(tenant)/accounts",
            body: #"{"email":"\#(email)","password":"tenant-pass","emailVerified":true}"#)
        #expect(created.status == .ok, "\(created.text)")
        return try API.signedIn(try await signIn(api, email, tenant: tenant))
    }

    /// Password sign-in of `email` in `tenant`.
    static func signIn(_ api: API, _ email: String, tenant: String) async throws -> Reply {
        try await call(api, Path.passwordSignIn, ["email": .string(email), "password": "tenant-pass", "returnSecureToken": true], tenant: tenant)
    }

    /// The pending credential and first hint's enrolment ID of a sign-in that asks for a second factor.
    static func challenge(_ api: API, _ email: String, tenant: String) async throws -> (pending: String, enrollmentID: String) {
        let reply = try await signIn(api, email, tenant: tenant)
        #expect(reply["idToken"] == nil, "\(reply.text)")
        return (
            try #require(reply.string("mfaPendingCredential"), "\(reply.text)"),
            try #require(reply["mfaInfo"]?.arrayValue?.first?["mfaEnrollmentId"]?.stringValue)
        )
    }

    /// Enrols `phone`, whose code is `code`, for the session `idToken` in `tenant` (none: the token's): the answer of
    /// finalize, or of start when start fails.
    static func enrollPhone(_ api: API, _ idToken: String, _ phone: String, code: String, tenant: String?) async throws -> Reply {
        let start = try await call(
            api, Path.enrollStart, ["idToken": .string(idToken), "phoneEnrollmentInfo": ["phoneNumber": .string(phone)]], tenant: tenant)
        guard let sessionInfo = start["phoneSessionInfo"]?["sessionInfo"]?.stringValue else { return start }
        return try await call(
            api, Path.enrollFinalize,
            ["idToken": .string(idToken), "phoneVerificationInfo": ["sessionInfo": .string(sessionInfo), "code": .string(code)]], tenant: tenant)
    }

    /// `mfaSignIn:start` for an SMS factor: its answer.
    static func startSignIn(_ api: API, _ pending: String, _ enrollmentID: String, tenant: String?) async throws -> Reply {
        try await call(api, Path.mfaStart, ["mfaPendingCredential": .string(pending), "mfaEnrollmentId": .string(enrollmentID)], tenant: tenant)
    }

    /// `mfaSignIn:finalize` with an SMS code.
    static func finishSignIn(_ api: API, _ pending: String, sessionInfo: String, code: String, tenant: String?) async throws -> Reply {
        try await call(
            api, Path.mfaFinalize,
            ["mfaPendingCredential": .string(pending), "phoneVerificationInfo": ["sessionInfo": .string(sessionInfo), "code": .string(code)]],
            tenant: tenant)
    }

    /// The `firebase` claims of an answer's ID token.
    static func firebase(_ reply: Reply) throws -> JSONValue {
        try firebase(ofToken: try #require(reply.string("idToken"), "\(reply.text)"))
    }

    /// The `firebase` claims of an ID token.
    static func firebase(ofToken token: String) throws -> JSONValue {
        try #require(try JWT.payload(token)["firebase"])
    }

    @Test(
        "a tenant user enrols SMS (a tenant's fictional number) and TOTP, signs in with a pending credential and finishes in the tenant",
        arguments: StoreEngine.all)
    func enrolAndSignIn(engine: StoreEngine) async throws {
        try await withTenants(engine) { api, a, _ in
            let user = try await Self.verifiedUser(api, "mfa@example.com", tenant: a)
            let enrolled = try await Self.enrollPhone(api, user.idToken, Self.numberA, code: Self.codeA, tenant: a)
            #expect(enrolled.status == .ok, "\(enrolled.text)")
            let enrolledClaims = try Self.firebase(enrolled)
            #expect(enrolledClaims["tenant"]?.stringValue == a && enrolledClaims["sign_in_second_factor"] == "phone")
            let phoneID = try #require(enrolledClaims["second_factor_identifier"]?.stringValue)

            // Sign-in: the pending credential, then the code of the tenant's fictional number, all in the tenant.
            let (pending, hint) = try await Self.challenge(api, "mfa@example.com", tenant: a)
            #expect(hint == phoneID)
            let start = try await Self.startSignIn(api, pending, hint, tenant: a)
            let sessionInfo = try #require(start["phoneResponseInfo"]?["sessionInfo"]?.stringValue, "\(start.text)")
            let done = try await Self.finishSignIn(api, pending, sessionInfo: sessionInfo, code: Self.codeA, tenant: a)
            #expect(done.status == .ok, "\(done.text)")
            let claims = try Self.firebase(done)
            #expect(claims["tenant"]?.stringValue == a && claims["sign_in_provider"] == "password" && claims["sign_in_second_factor"] == "phone")
            let refreshed = try await api.refresh(try #require(done.string("refreshToken")))
            let refreshedToken = try #require(refreshed.string("id_token"), "\(refreshed.text)")
            #expect(try Self.firebase(ofToken: refreshedToken)["tenant"]?.stringValue == a)

            // A client that sends the pending credential alone is served in the credential's tenant.
            let (alone, _) = try await Self.challenge(api, "mfa@example.com", tenant: a)
            let startAlone = try await Self.startSignIn(api, alone, hint, tenant: nil)
            let aloneInfo = try #require(startAlone["phoneResponseInfo"]?["sessionInfo"]?.stringValue, "\(startAlone.text)")
            let doneAlone = try await Self.finishSignIn(api, alone, sessionInfo: aloneInfo, code: Self.codeA, tenant: nil)
            #expect(try Self.firebase(doneAlone)["tenant"]?.stringValue == a, "\(doneAlone.text)")

            // TOTP, under the tenant's providerConfigs.
            let session = try #require(done.string("idToken"))
            let totpStart = try await Self.call(api, Path.enrollStart, ["idToken": .string(session), "totpEnrollmentInfo": [:]], tenant: a)
            let secret = try #require(totpStart["totpSessionInfo"]?["sharedSecretKey"]?.stringValue, "\(totpStart.text)")
            let totpSession = try #require(totpStart["totpSessionInfo"]?["sessionInfo"]?.stringValue)
            let totpDone = try await Self.call(
                api, Path.enrollFinalize,
                [
                    "idToken": .string(session),
                    "totpVerificationInfo": ["sessionInfo": .string(totpSession), "verificationCode": .string(try api.totpCode(secret))],
                ], tenant: a)
            #expect(totpDone.status == .ok, "\(totpDone.text)")
            let totpID = try #require(try Self.firebase(totpDone)["second_factor_identifier"]?.stringValue)
            api.clock.advance(by: .seconds(30))
            let (totpPending, _) = try await Self.challenge(api, "mfa@example.com", tenant: a)
            let totpSignIn = try await Self.call(
                api, Path.mfaFinalize,
                [
                    "mfaPendingCredential": .string(totpPending), "mfaEnrollmentId": .string(totpID),
                    "totpVerificationInfo": ["verificationCode": .string(try api.totpCode(secret))],
                ], tenant: a)
            let totpClaims = try Self.firebase(totpSignIn)
            #expect(totpClaims["tenant"]?.stringValue == a && totpClaims["sign_in_second_factor"] == "totp")

            // Withdrawing the SMS factor in the tenant.
            let withdrawn = try await Self.call(
                api, Path.withdraw, ["idToken": .string(try #require(totpSignIn.string("idToken"))), "mfaEnrollmentId": .string(phoneID)], tenant: a)
            #expect(withdrawn.status == .ok, "\(withdrawn.text)")
            #expect(try Self.firebase(withdrawn)["tenant"]?.stringValue == a)
        }
    }

    @Test(
        "nothing in tenant A enrols, finishes, withdraws or reads a second factor of tenant B's user, and B's factor is untouched",
        arguments: StoreEngine.all)
    func isolation(engine: StoreEngine) async throws {
        try await withTenants(engine) { api, a, b in
            let inA = try await Self.verifiedUser(api, "a@example.com", tenant: a)
            let inB = try await Self.verifiedUser(api, "b@example.com", tenant: b)
            let enrolledB = try await Self.enrollPhone(api, inB.idToken, Self.numberB, code: Self.codeB, tenant: b)
            #expect(enrolledB.status == .ok, "\(enrolledB.text)")
            let tokenB = try #require(enrolledB.string("idToken"))
            let factorB = try #require(try Self.firebase(enrolledB)["second_factor_identifier"]?.stringValue)

            // B's ID token in A: enrolment, withdrawal, recovery codes and reads are refused.
            let enrolInA = try await Self.enrollPhone(api, tokenB, Self.numberA, code: Self.codeA, tenant: a)
            #expect(enrolInA.errorCode == "TENANT_ID_MISMATCH", "\(enrolInA.text)")
            let withdrawInA = try await Self.call(
                api, Path.withdraw, ["idToken": .string(tokenB), "mfaEnrollmentId": .string(factorB)], tenant: a)
            #expect(withdrawInA.errorCode == "TENANT_ID_MISMATCH", "\(withdrawInA.text)")
            let recovery = try await Self.call(api, "/flint/v1/accounts/mfaRecoveryCodes:regenerate", ["idToken": .string(tokenB)], tenant: a)
            #expect(recovery.errorCode == "TENANT_ID_MISMATCH", "\(recovery.text)")
            #expect(try await Self.call(api, Path.lookup, ["idToken": .string(tokenB)], tenant: a).errorCode == "TENANT_ID_MISMATCH")

            // A's own session names B's factor: not A's.
            let enrolledA = try await Self.enrollPhone(api, inA.idToken, Self.numberA, code: Self.codeA, tenant: a)
            let tokenA = try #require(enrolledA.string("idToken"), "\(enrolledA.text)")
            let withdrawB = try await Self.call(api, Path.withdraw, ["idToken": .string(tokenA), "mfaEnrollmentId": .string(factorB)], tenant: a)
            #expect(withdrawB.errorCode == "MFA_ENROLLMENT_NOT_FOUND", "\(withdrawB.text)")

            // B's pending credential is refused in A, at start and finish.
            let (pendingB, hintB) = try await Self.challenge(api, "b@example.com", tenant: b)
            let startInA = try await Self.startSignIn(api, pendingB, hintB, tenant: a)
            #expect(startInA.errorMessage == "INVALID_PROJECT_ID : Project ID does not match MFA pending credential.", "\(startInA.text)")
            let startB = try await Self.startSignIn(api, pendingB, hintB, tenant: b)
            let sessionB = try #require(startB["phoneResponseInfo"]?["sessionInfo"]?.stringValue, "\(startB.text)")
            let finishInA = try await Self.finishSignIn(api, pendingB, sessionInfo: sessionB, code: Self.codeB, tenant: a)
            #expect(finishInA.errorCode == "INVALID_PROJECT_ID", "\(finishInA.text)")

            // A's pending credential with B's code session, or naming B's factor, finishes nothing.
            let (pendingA, _) = try await Self.challenge(api, "a@example.com", tenant: a)
            let withBCode = try await Self.finishSignIn(api, pendingA, sessionInfo: sessionB, code: Self.codeB, tenant: a)
            #expect(withBCode.errorCode == "INVALID_SESSION_INFO", "B's fictional number is not A's: \(withBCode.text)")
            let namingB = try await Self.call(
                api, Path.mfaFinalize,
                [
                    "mfaPendingCredential": .string(pendingA), "mfaEnrollmentId": .string(factorB),
                    "totpVerificationInfo": ["verificationCode": "123456"],
                ],
                tenant: a)
            #expect(namingB.errorCode == "MFA_ENROLLMENT_NOT_FOUND", "\(namingB.text)")

            // A code texted for B's enrolment (a real number) proves nothing in A.
            let realStart = try await Self.call(
                api, Path.enrollStart, ["idToken": .string(tokenB), "phoneEnrollmentInfo": ["phoneNumber": "+16505550177"]], tenant: b)
            let realSession = try #require(realStart["phoneSessionInfo"]?["sessionInfo"]?.stringValue, "\(realStart.text)")
            let codes = try await api.call(.get, "/emulator/v1/projects/\(project)/tenants/\(b)/verificationCodes")["verificationCodes"]?.arrayValue
            let realCode = try #require(codes?.last { $0["phoneNumber"] == "+16505550177" }?["code"]?.stringValue, "\(codes ?? [])")
            let stolen = try await Self.call(
                api, Path.enrollFinalize,
                ["idToken": .string(tokenA), "phoneVerificationInfo": ["sessionInfo": .string(realSession), "code": .string(realCode)]], tenant: a)
            #expect(stolen.errorCode == "INVALID_SESSION_INFO", "\(stolen.text)")

            // B's user still has its one factor, and finishes its sign-in in B.
            let lookup = try await Self.call(api, Path.lookup, ["idToken": .string(tokenB)], tenant: b)
            #expect(lookup["users"]?.arrayValue?.first?["mfaInfo"]?.arrayValue?.count == 1, "\(lookup.text)")
            let finishB = try await Self.finishSignIn(api, pendingB, sessionInfo: sessionB, code: Self.codeB, tenant: b)
            #expect(try Self.firebase(finishB)["tenant"]?.stringValue == b)
            let lookupA = try await Self.call(api, Path.lookup, ["idToken": .string(tokenA)], tenant: a)
            #expect(lookupA["users"]?.arrayValue?.first?["mfaInfo"]?.arrayValue?.count == 1, "A got no factor of B's: \(lookupA.text)")
        }
    }

    @Test("a tenant's mfaConfig governs its users, not the project's: DISABLED there refuses enrolment the project allows, and the other way")
    func tenantMFAConfigGoverns() async throws {
        try await withFlint { api in
            let closed = try await TenantTests.create(api, Self.tenantDocument("closed", state: "DISABLED", number: Self.numberA, code: Self.codeA))
            let open = try await TenantTests.create(api, Self.tenantDocument("open", number: Self.numberB, code: Self.codeB))
            let inClosed = try await Self.verifiedUser(api, "c@example.com", tenant: closed)
            let inOpen = try await Self.verifiedUser(api, "o@example.com", tenant: open)
            let mine = try await api.signInWithEmailLink("p@example.com")

            // The project's MFA is off: its user cannot enrol; the open tenant's can.
            let projectRefused = try await api.postJSON(
                Path.enrollStart, ["idToken": mine.idToken, "phoneEnrollmentInfo": ["phoneNumber": "+16505550160"]])
            #expect(projectRefused.errorMessage == "OPERATION_NOT_ALLOWED : SMS based MFA not enabled.", "\(projectRefused.text)")
            let openEnrolled = try await Self.enrollPhone(api, inOpen.idToken, Self.numberB, code: Self.codeB, tenant: open)
            #expect(openEnrolled.status == .ok, "\(openEnrolled.text)")

            // The project's MFA is on: its user enrols; the closed tenant's cannot, SMS or TOTP.
            try await api.enableMFA()
            #expect(try await api.enrollPhone(mine, "+16505550160").status == .ok)
            let closedSMS = try await Self.enrollPhone(api, inClosed.idToken, Self.numberA, code: Self.codeA, tenant: closed)
            #expect(closedSMS.errorMessage == "OPERATION_NOT_ALLOWED : SMS based MFA not enabled.", "\(closedSMS.text)")
            let closedTOTP = try await Self.call(
                api, Path.enrollStart, ["idToken": .string(inClosed.idToken), "totpEnrollmentInfo": [:]], tenant: closed)
            #expect(closedTOTP.errorMessage == "OPERATION_NOT_ALLOWED : TOTP based MFA not enabled.", "\(closedTOTP.text)")
        }
    }

    @Test("a passkey enrolled in tenant A signs in there only: not in tenant B, not in the default tenant", arguments: StoreEngine.all)
    func passkeys(engine: StoreEngine) async throws {
        try await withTenants(engine) { api, a, b in
            let inA = try await Self.verifiedUser(api, "pk@example.com", tenant: a)
            let inB = try await Self.verifiedUser(api, "pk@example.com", tenant: b)
            var authenticator = SoftwareAuthenticator()
            authenticator.userHandle = Array(inA.localId.utf8)
            // The ID token names the tenant; enrolment runs there.
            let enrolled = try await api.enrollPasskey(inA.idToken, authenticator)
            #expect(enrolled.status == .ok, "\(enrolled.text)")
            #expect(try Self.firebase(enrolled)["tenant"]?.stringValue == a)

            let signedIn = try await api.signInWithPasskey(&authenticator, tenant: a)
            #expect(signedIn.string("localId") == inA.localId, "\(signedIn.text)")
            let claims = try Self.firebase(signedIn)
            #expect(claims["tenant"]?.stringValue == a && claims["sign_in_provider"] == "passkey")
            for tenant in [b, nil] {
                let elsewhere = try await api.signInWithPasskey(&authenticator, tenant: tenant)
                #expect(elsewhere.errorCode == "PASSKEY_ENROLLMENT_NOT_FOUND", "\(tenant ?? "default"): \(elsewhere.text)")
            }
            // A challenge issued in B does not serve a sign-in in A.
            let challengeB = try await api.passkeySignInChallenge(tenant: b)
            var body = API.assertionBody(authenticator, try authenticator.assert(rpID: "localhost", challenge: challengeB, origin: passkeyOrigin))
            body["tenantId"] = a
            let crossed = try await api.postJSON(Path.passkeySignInFinalize, body)
            #expect(crossed.errorMessage == "INVALID_AUTHENTICATOR_RESPONSE : Invalid or expired challenge.", "\(crossed.text)")
            // B's session cannot enrol in A; the relying party's checks hold in a tenant.
            let enrolInA = try await api.postJSON(Path.passkeyEnrollStart, ["idToken": inB.idToken, "tenantId": a], origin: passkeyOrigin)
            #expect(enrolInA.errorCode == "TENANT_ID_MISMATCH", "\(enrolInA.text)")
            let evil = try await api.signInWithPasskey(&authenticator, origin: "https://evil.example", tenant: a)
            #expect(evil.errorCode == "INVALID_AUTHENTICATOR_RESPONSE", "\(evil.text)")
            #expect(try await api.signInWithPasskey(&authenticator, tenant: a).status == .ok)
        }
    }
}
