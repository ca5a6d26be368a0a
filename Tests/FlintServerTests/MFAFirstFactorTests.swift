import FlintCore
import FlintServerTestSupport
import FlintTesting
import HTTPTypes
import Testing

@Suite("Second factors per first factor (flint.mfaFirstFactors)")
struct MFAFirstFactorTests {
    /// Sets `flint.mfaFirstFactors` to `states` (a JSON object's text).
    private func setFirstFactors(_ api: API, _ states: String) async throws {
        try await api.patchConfig(#"{"flint":{"mfaFirstFactors":\#(states)}}"#, mask: "flint.mfaFirstFactors")
    }

    /// An email-link sign-in's answer, as the SDK gets it.
    private func emailLinkSignIn(_ api: API, _ email: String) async throws -> Reply {
        _ = try await api.sendSignInLink(email)
        let oob = try await api.oobCode(for: email).code
        return try await api.post(Path.emailLinkSignIn, ["email": email, "oobCode": oob])
    }

    @Test("DISABLED for a first factor: its sign-ins of an enrolled account get tokens; other providers' states leave it challenged")
    func notAskedForOneProvider() async throws {
        try await withFlint { api in
            try await api.enableMFA()
            let user = try await api.signInWithEmailLink("skip@example.com")
            #expect(try await api.enrollPhone(user, "+16505550171").status == .ok)
            try await setFirstFactors(api, #"{"password":"DISABLED"}"#)
            let through = try await emailLinkSignIn(api, "skip@example.com")
            #expect(through.status == .ok && through.string("idToken") != nil && through["mfaPendingCredential"] == nil, "\(through.text)")
            let claims = try JWT.payload(try #require(through.string("idToken")))
            #expect(claims["firebase"]?["sign_in_second_factor"] == nil)

            try await setFirstFactors(api, #"{"google.com":"DISABLED"}"#)
            let challenged = try await emailLinkSignIn(api, "skip@example.com")
            #expect(challenged["idToken"] == nil && challenged.string("mfaPendingCredential") != nil)
            #expect(challenged["mfaInfo"]?.arrayValue?.count == 1)
        }
    }

    @Test("MANDATORY for a first factor in an ENABLED project: its accounts enrol with the pending credential first; others get tokens")
    func mandatoryForOneProvider() async throws {
        try await withFlint { api in
            try await api.enableMFA()
            try await setFirstFactors(api, #"{"password":"MANDATORY"}"#)
            let first = try await emailLinkSignIn(api, "must@example.com")
            #expect(first.status == .ok && first["idToken"] == nil, "\(first.text)")
            #expect(first["mfaEnrollmentRequired"] == .bool(true) && first["mfaInfo"] == .array([]))
            let pending = try #require(first.string("mfaPendingCredential"))
            let done = try await api.enrollPhone(pending: pending, "+16505550172")
            let claims = try JWT.payload(try #require(done.string("idToken"), "\(done.text)"))
            #expect(claims["firebase"]?["sign_in_second_factor"]?.stringValue == "phone")

            let phone = try await api.signIn("+16505550173")
            #expect(!phone.idToken.isEmpty, "a phone sign-in follows the project's ENABLED")
            try await setFirstFactors(api, #"{}"#)
            let notMandatory = try await emailLinkSignIn(api, "other@example.com")
            #expect(notMandatory.string("idToken") != nil)
        }
    }

    @Test(
        "the map is checked: a provider name and one of the MFA states; custom tokens cannot be listed",
        arguments: [
            (#"{"password":"SOMETIMES"}"#, "flint.mfaFirstFactors.password must be one of DISABLED, ENABLED, MANDATORY"),
            (#"{"custom":"MANDATORY"}"#, "flint.mfaFirstFactors has an invalid sign-in provider"),
            (#"["password"]"#, "flint.mfaFirstFactors must be a map of sign-in providers to MFA states"),
        ])
    func refused(_ states: String, _ message: String) async throws {
        try await withFlint { api in
            let reply = try await api.admin(
                .patch, Path.config + "?updateMask=flint.mfaFirstFactors", body: #"{"flint":{"mfaFirstFactors":\#(states)}}"#)
            #expect(reply.status == .badRequest && reply.text.contains(message), "\(reply.text)")
        }
    }
}
