import FlintCore
import FlintServer
import FlintServerTestSupport
import FlintTesting
import Foundation
import HTTPTypes
import Testing

@Suite("New accounts per client IP")
struct NewAccountLimitTests {
    static func from(_ ip: String) -> HTTPFields { [HTTPField.Name("X-Forwarded-For")!: ip] }

    @Test("every way of creating an account counts against the address's hourly limit; sign-ins of existing accounts do not")
    func everyWayCounts() async throws {
        try await withFlint(configure: {
            $0.trustForwardedFor = true
            $0.newAccountsPerIPPerHour = 3
        }) { api in
            try await api.patchConfig(#"{"signIn":{"anonymous":{"enabled":true}}}"#, mask: "signIn.anonymous")
            let a = Self.from("203.0.113.7")
            #expect(try await api.post(Path.signUp, ["email": "one@example.com", "password": "password1"], headers: a).status == .ok)
            #expect(try await api.post(Path.signUp, [:], headers: a).status == .ok, "anonymous")
            // A first phone sign-in creates the third.
            let session = try await api.sendCode("+16505550201")
            let code = try await api.pendingCode(for: "+16505550201")
            #expect(try await api.post(Path.signIn, ["sessionInfo": session, "code": code], headers: a).status == .ok)

            // The fourth, any way, is refused and creates nothing.
            let refused = try await api.post(Path.signUp, ["email": "four@example.com", "password": "password1"], headers: a)
            #expect(refused.errorCode == "TOO_MANY_ATTEMPTS_TRY_LATER", "\(refused.text)")
            #expect(try await api.post(Path.signUp, [:], headers: a).errorCode == "TOO_MANY_ATTEMPTS_TRY_LATER")
            let phone = try await api.post(Path.send, ["phoneNumber": "+16505550202"], headers: a)
            let phoneCode = try await api.pendingCode(for: "+16505550202")
            let phoneRefused = try await api.post(
                Path.signIn, ["sessionInfo": try #require(phone.string("sessionInfo")), "code": phoneCode], headers: a)
            #expect(phoneRefused.errorCode == "TOO_MANY_ATTEMPTS_TRY_LATER")
            #expect(try await api.sendSignInLink("link@example.com").status == .ok)
            let link = try await api.post(
                Path.emailLinkSignIn, ["email": "link@example.com", "oobCode": try await api.oobCode(for: "link@example.com").code], headers: a)
            #expect(link.errorCode == "TOO_MANY_ATTEMPTS_TRY_LATER")
            let custom = CustomToken.unsigned(payload: ["aud": .string(CustomToken.audience), "uid": "custom-four"])
            let customRefused = try await api.post(Path.customTokenV1, ["token": custom], headers: a)
            #expect(customRefused.errorCode == "TOO_MANY_ATTEMPTS_TRY_LATER", "a custom token for a new account counts too")
            let lookup = try await api.admin(
                .post, "\(Path.v1)/projects/\(project)/accounts:lookup",
                body: #"{"email":["four@example.com","link@example.com"],"localId":["custom-four"]}"#)
            #expect(lookup["users"] == nil, "nothing was created: \(lookup.text)")

            // Existing accounts still sign in from there; other addresses and operators are not affected.
            #expect(try await api.signInWithPassword("one@example.com", "password1", headers: a).status == .ok)
            #expect(
                try await api.post(Path.signUp, ["email": "other@example.com", "password": "password1"], headers: Self.from("198.51.100.2")).status
                    == .ok)
            #expect(try await api.admin(.post, "\(Path.v1)/projects/\(project)/accounts", body: #"{"email":"ops@example.com"}"#).status == .ok)

            // The next hour the address may create accounts again.
            api.clock.advance(by: .seconds(3600))
            #expect(try await api.post(Path.signUp, ["email": "later@example.com", "password": "password1"], headers: a).status == .ok)
        }
    }
}
