import FlintCore
import FlintTexts
import Foundation
import Testing

@Suite("Password policy (passwordPolicyConfig)")
struct PasswordPolicyTests {
    /// A policy asking for 8 to 12 characters and every character class.
    static let strict: PasswordPolicy = {
        var p = PasswordPolicy(enforced: true)
        (p.minLength, p.maxLength) = (8, 12)
        (p.requiresLowercase, p.requiresUppercase, p.requiresNumeric, p.requiresNonAlphanumeric) = (true, true, true, true)
        return p
    }()

    static let config: [String: JSONValue] = [
        "passwordPolicyConfig": [
            "passwordPolicyEnforcementState": "ENFORCE", "forceUpgradeOnSignin": true,
            "passwordPolicyVersions": [
                ["customStrengthOptions": ["minPasswordLength": "8", "maxPasswordLength": .number(12), "containsUppercaseCharacter": true]]
            ],
        ]
    ]

    /// Passwords and what they miss of ``strict``.
    static let cases: [(String, [PasswordPolicy.Requirement])] = [
        ("Abcdef1!", []),
        ("abcdef1!", [.uppercase]),
        ("ABCDEF1!", [.lowercase]),
        ("Abcdefg!", [.numeric]),
        ("Abcdefg1", [.nonAlphanumeric]),
        ("Ab1!", [.minLength(8)]),
        ("Abcdefghijk1!", [.maxLength(12)]),
        ("abc", [.minLength(8), .uppercase, .numeric, .nonAlphanumeric]),
        ("Abcdefé1", [.nonAlphanumeric]),
        ("Abcdef1`", []),
        ("ABCDEF12\\", [.lowercase]),
    ]

    @Test("unmet lists what a password misses, in Firebase's order", arguments: cases)
    func unmet(_ password: String, _ expected: [PasswordPolicy.Requirement]) {
        #expect(Self.strict.unmet(password) == expected)
    }

    @Test("the error lists the unmet requirements as Firebase words them")
    func errorMessage() throws {
        let error = try #require(Self.strict.violation("abcdefgh1!"))
        #expect(
            error.message == "PASSWORD_DOES_NOT_MEET_REQUIREMENTS : Missing password requirements: [Password must contain an upper case character]")
        #expect(
            AuthError.passwordDoesNotMeetRequirements([.minLength(8), .uppercase]).message
                == "PASSWORD_DOES_NOT_MEET_REQUIREMENTS : Missing password requirements: [Password must contain at least 8 characters, Password must contain an upper case character]"
        )
        #expect(Self.strict.violation("Abcdef1!") == nil)
    }

    @Test("notification codes are Identity Platform's")
    func notificationCodes() {
        let codes = [PasswordPolicy.Requirement.minLength(6), .maxLength(9), .lowercase, .uppercase, .numeric, .nonAlphanumeric].map(
            \.notificationCode)
        #expect(
            codes == [
                "MINIMUM_PASSWORD_LENGTH", "MAXIMUM_PASSWORD_LENGTH", "MISSING_LOWERCASE_CHARACTER", "MISSING_UPPERCASE_CHARACTER",
                "MISSING_NUMERIC_CHARACTER", "MISSING_NON_ALPHANUMERIC_CHARACTER",
            ])
    }

    @Test("a config section parses into the policy; lengths given as strings are stored as numbers")
    func parses() throws {
        let c = try ProjectConfig(document: Self.config)
        let policy = try #require(c.passwordPolicy)
        #expect(policy.enforced && policy.forceUpgradeOnSignin)
        #expect(policy.minLength == 8 && policy.maxLength == 12)
        #expect(policy.requiresUppercase && !policy.requiresLowercase && !policy.requiresNumeric && !policy.requiresNonAlphanumeric)
        #expect(c.enforcedPasswordPolicy == policy)
        #expect(
            c.document["passwordPolicyConfig"]?["passwordPolicyVersions"]?.arrayValue?.first?["customStrengthOptions"]?["minPasswordLength"]
                == .number(8))
    }

    @Test("no section is no policy; OFF is a policy that is not enforced")
    func absentAndOff() throws {
        #expect(ProjectConfig.defaults.passwordPolicy == nil)
        #expect(ProjectConfig.defaults.enforcedPasswordPolicy == nil)
        let off = try ProjectConfig(document: ["passwordPolicyConfig": ["passwordPolicyEnforcementState": "OFF"]])
        #expect(off.passwordPolicy?.enforced == false)
        #expect(off.passwordPolicy?.minLength == 6 && off.passwordPolicy?.maxLength == 4096)
        #expect(off.enforcedPasswordPolicy == nil)
    }

    @Test(
        "malformed sections are refused with INVALID_CONFIG",
        arguments: [
            (#"{"passwordPolicyEnforcementState":"ON"}"#, "passwordPolicyEnforcementState must be OFF or ENFORCE"),
            (#"{"forceUpgradeOnSignin":"yes"}"#, "forceUpgradeOnSignin must be a boolean"),
            (#"{"passwordPolicyVersions":[]}"#, "exactly one version"),
            (#"{"passwordPolicyVersions":[{},{}]}"#, "exactly one version"),
            (#"{"passwordPolicyVersions":[{"customStrengthOptions":{"minPasswordLength":5}}]}"#, "minPasswordLength must be between 6 and 30"),
            (#"{"passwordPolicyVersions":[{"customStrengthOptions":{"minPasswordLength":31}}]}"#, "minPasswordLength must be between 6 and 30"),
            (#"{"passwordPolicyVersions":[{"customStrengthOptions":{"maxPasswordLength":4097}}]}"#, "maxPasswordLength must be at most 4096"),
            (
                #"{"passwordPolicyVersions":[{"customStrengthOptions":{"minPasswordLength":10,"maxPasswordLength":8}}]}"#,
                "maxPasswordLength must not be less than minPasswordLength"
            ),
            (#"{"passwordPolicyVersions":[{"customStrengthOptions":{"minPasswordLength":8.5}}]}"#, "must be an integer"),
            (#"{"passwordPolicyVersions":[{"customStrengthOptions":{"containsNumericCharacter":1}}]}"#, "must be a boolean"),
            (#"{"passwordPolicyVersions":[{"customStrengthOptions":{"containsEmoji":true}}]}"#, "unknown field: containsEmoji"),
            (#"{"enforcement":"ENFORCE"}"#, "unknown field: enforcement"),
        ])
    func malformed(_ section: String, _ detail: String) throws {
        let parsed = try JSONDecoder().decode(JSONValue.self, from: Data(section.utf8))
        #expect {
            _ = try ProjectConfig(document: ["passwordPolicyConfig": parsed])
        } throws: { error in
            guard let error = error as? AuthError else { return false }
            return error.code == "INVALID_CONFIG" && (error.detail ?? "").contains(detail)
        }
    }

    @Test("mobileLinksConfig takes one of Firebase's two domains")
    func mobileLinks() throws {
        let c = try ProjectConfig(document: ["mobileLinksConfig": ["domain": "HOSTING_DOMAIN"]])
        #expect(c.mobileLinksDomain == "HOSTING_DOMAIN")
        #expect(ProjectConfig.defaults.mobileLinksDomain == nil)
        for bad: JSONValue in [["domain": "EXAMPLE_DOMAIN"], ["host": "HOSTING_DOMAIN"], "HOSTING_DOMAIN"] {
            #expect(throws: AuthError.self) { _ = try ProjectConfig(document: ["mobileLinksConfig": bad]) }
        }
    }

    @Test("the update mask names the new sections and their fields")
    func updateMask() throws {
        let patch: [String: JSONValue] = [
            "passwordPolicyConfig": ["passwordPolicyEnforcementState": "ENFORCE"], "mobileLinksConfig": ["domain": "HOSTING_DOMAIN"],
        ]
        let c = try ProjectConfig.defaults.applying(
            patch: patch, updateMask: ["passwordPolicyConfig.passwordPolicyEnforcementState", "mobileLinksConfig.domain"])
        #expect(c.enforcedPasswordPolicy != nil)
        #expect(c.mobileLinksDomain == "HOSTING_DOMAIN")
        let cleared = try c.applying(patch: [:], updateMask: ["passwordPolicyConfig"])
        #expect(cleared.passwordPolicy == nil)
    }
}
