import FlintCore
import FlintServerTestSupport
import Foundation
import HTTPTypes
import Testing

@Suite("Password policy (passwordPolicyConfig) and mobileLinksConfig over HTTP")
struct PasswordPolicyRouteTests {
    static let policyPath = "/identitytoolkit.googleapis.com/v2/passwordPolicy"
    /// The fields the Node Admin SDK's `updateProjectConfig` names in its mask.
    static let mask = [
        "passwordPolicyConfig.passwordPolicyEnforcementState", "passwordPolicyConfig.forceUpgradeOnSignin",
        "passwordPolicyConfig.passwordPolicyVersions",
    ].joined(separator: ",")

    /// At least 8 characters with an upper-case letter and a digit.
    static func policy(_ state: String = "ENFORCE", forceUpgrade: Bool = false) -> String {
        #"{"passwordPolicyConfig":{"passwordPolicyEnforcementState":"\#(state)","forceUpgradeOnSignin":\#(forceUpgrade),"#
            + #""passwordPolicyVersions":[{"customStrengthOptions":{"minPasswordLength":8,"maxPasswordLength":30,"#
            + #""containsUppercaseCharacter":true,"containsNumericCharacter":true}}]}}"#
    }

    static let missingBoth =
        "PASSWORD_DOES_NOT_MEET_REQUIREMENTS : Missing password requirements: [Password must contain an upper case character, Password must contain a numeric character]"

    @Test("the Admin SDK's PATCH is stored and answered in GET config; bad ranges are INVALID_CONFIG")
    func storesAndValidates() async throws {
        try await withFlint { api in
            try await api.patchConfig(Self.policy(), mask: Self.mask)
            let stored = try await api.admin(.get, Path.config)
            #expect(stored["passwordPolicyConfig"]?["passwordPolicyEnforcementState"] == "ENFORCE")
            let options = stored["passwordPolicyConfig"]?["passwordPolicyVersions"]?.arrayValue?.first?["customStrengthOptions"]
            #expect(options?["minPasswordLength"] == .number(8))
            let bad = #"{"passwordPolicyConfig":{"passwordPolicyVersions":[{"customStrengthOptions":{"minPasswordLength":4}}]}}"#
            let refused = try await api.admin(.patch, Path.config + "?updateMask=passwordPolicyConfig.passwordPolicyVersions", body: bad)
            #expect(refused.status == .badRequest)
            #expect(refused.errorMessage == "INVALID_CONFIG : minPasswordLength must be between 6 and 30", "\(refused.text)")
        }
    }

    @Test("sign-up, a password change and a reset refuse a password that falls short, listing what it misses")
    func enforced() async throws {
        try await withFlint { api in
            let user = try await api.signUp("before@example.com", "lowercase only")
            try await api.patchConfig(Self.policy(), mask: Self.mask)
            let signUp = try await api.post(Path.signUp, ["email": "weak@example.com", "password": "abcdefgh"])
            #expect(signUp.errorMessage == Self.missingBoth, "\(signUp.text)")
            #expect(signUp.status == .badRequest)
            _ = try await api.signUp("strong@example.com", "Abcdefg1")
            let change = try await api.post(Path.update, ["idToken": user.idToken, "password": "short1"])
            #expect(
                change.errorMessage
                    == "PASSWORD_DOES_NOT_MEET_REQUIREMENTS : Missing password requirements: [Password must contain at least 8 characters, Password must contain an upper case character]"
            )
            #expect(try await api.post(Path.update, ["idToken": user.idToken, "password": "Changed1pass"]).status == .ok)
            _ = try await api.post(Path.sendOob, ["requestType": "PASSWORD_RESET", "email": "before@example.com"])
            let code = try await api.oobCode(for: "before@example.com").code
            let reset = try await api.post(Path.resetPassword, ["oobCode": code, "newPassword": "abcdefgh"])
            #expect(reset.errorMessage == Self.missingBoth)
            let page = try await api.call(
                .post, Path.action, body: "mode=resetPassword&oobCode=\(code)&newPassword=abcdefgh", contentType: "application/x-www-form-urlencoded")
            #expect(page.status == .badRequest)
            #expect(page.text.contains("newPassword"), "the form is shown again")
            #expect(
                page.text.contains("<p>This password is missing:</p><ul><li>an upper-case letter</li><li>a digit</li></ul>"),
                "the page lists the rules the password missed")
            let form = try await api.call(.get, "\(Path.action)?mode=resetPassword&oobCode=\(code)&lang=de")
            #expect(form.text.contains("<li>mindestens 8 Zeichen</li><li>höchstens 30 Zeichen</li>"), "the form lists the policy")
            #expect(form.text.contains("minlength=\"8\" maxlength=\"30\""))
            #expect(try await api.post(Path.resetPassword, ["oobCode": code, "newPassword": "Reset1pass"]).status == .ok)
        }
    }

    @Test("OFF does not refuse; the default (no policy) keeps the 6-character rule only")
    func notEnforced() async throws {
        try await withFlint { api in
            _ = try await api.signUp("default@example.com", "abcdef")
            try await api.patchConfig(Self.policy("OFF"), mask: Self.mask)
            _ = try await api.signUp("off@example.com", "abcdefgh")
        }
    }

    @Test("password sign-in: notifications without forced upgrade, refused with it, nothing for a compliant password")
    func signIn() async throws {
        try await withFlint { api in
            _ = try await api.signUp("old@example.com", "abcdefgh")
            _ = try await api.signUp("good@example.com", "Abcdefg1")
            try await api.patchConfig(Self.policy(), mask: Self.mask)
            let notified = try await api.signInWithPassword("old@example.com", "abcdefgh")
            #expect(notified.status == .ok)
            #expect(notified["idToken"]?.stringValue != nil)
            let notes = notified["userNotifications"]?.arrayValue ?? []
            #expect(notes.map { $0["notificationCode"] } == ["MISSING_UPPERCASE_CHARACTER", "MISSING_NUMERIC_CHARACTER"])
            #expect(notes.first?["notificationMessage"] == "Password must contain an upper case character")
            let good = try await api.signInWithPassword("good@example.com", "Abcdefg1")
            #expect(good.status == .ok && good["userNotifications"] == nil)

            try await api.patchConfig(Self.policy(forceUpgrade: true), mask: Self.mask)
            let refused = try await api.signInWithPassword("old@example.com", "abcdefgh")
            #expect(refused.errorMessage == Self.missingBoth, "\(refused.text)")
            #expect(try await api.signInWithPassword("old@example.com", "wrong-pass").errorCode == "INVALID_LOGIN_CREDENTIALS")
            #expect(try await api.signInWithPassword("good@example.com", "Abcdefg1").status == .ok)
        }
    }

    @Test("without a policy a sign-in answers no notifications")
    func noPolicySignIn() async throws {
        try await withFlint { api in
            _ = try await api.signUp("plain@example.com", "abcdef")
            let reply = try await api.signInWithPassword("plain@example.com", "abcdef")
            #expect(reply.status == .ok && reply["userNotifications"] == nil)
        }
    }

    @Test("GET v2/passwordPolicy answers the policy the SDKs validate against")
    func getPasswordPolicy() async throws {
        try await withFlint { api in
            let initial = try await api.call(.get, API.keyed(Self.policyPath))
            #expect(initial.status == .ok, "\(initial.text)")
            #expect(initial["enforcementState"] == "OFF")
            #expect(initial["customStrengthOptions"]?["minPasswordLength"] == .number(6))
            #expect(initial["schemaVersion"] == .number(1))
            try await api.patchConfig(Self.policy(forceUpgrade: true), mask: Self.mask)
            let reply = try await api.call(.get, API.keyed(Self.policyPath))
            #expect(reply["enforcementState"] == "ENFORCE")
            #expect(reply["forceUpgradeOnSignin"] == true)
            #expect(reply["customStrengthOptions"]?["minPasswordLength"] == .number(8))
            #expect(reply["customStrengthOptions"]?["containsUppercaseCharacter"] == true)
            #expect(reply["customStrengthOptions"]?["containsLowercaseCharacter"] == nil)
            let symbols = (reply["allowedNonAlphanumericCharacters"]?.arrayValue ?? []).compactMap(\.stringValue).joined()
            #expect(symbols == "^$*.[]{}()?\"!@#%&/\\,><':;|_~`")
            #expect(try await api.call(.get, Self.policyPath).status != .ok, "an API key is required")
        }
    }

    @Test("mobileLinksConfig is validated, stored and answered")
    func mobileLinks() async throws {
        try await withFlint { api in
            try await api.patchConfig(#"{"mobileLinksConfig":{"domain":"HOSTING_DOMAIN"}}"#, mask: "mobileLinksConfig.domain")
            #expect(try await api.admin(.get, Path.config)["mobileLinksConfig"]?["domain"] == "HOSTING_DOMAIN")
            let bad = try await api.admin(.patch, Path.config + "?updateMask=mobileLinksConfig", body: #"{"mobileLinksConfig":{"domain":"X"}}"#)
            #expect(bad.status == .badRequest)
            #expect(bad.errorCode == "INVALID_CONFIG")
        }
    }
}
