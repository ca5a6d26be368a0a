import FlintCore
import Testing

@Suite("Project config")
struct ProjectConfigTests {
    @Test("defaults: phone sign-in on, no test numbers, localhost authorized")
    func defaults() {
        let c = ProjectConfig.defaults
        #expect(c.phoneSignInEnabled)
        #expect(c.testPhoneNumbers.isEmpty)
        #expect(c.authorizedDomains == ["localhost"])
    }

    @Test("test numbers are normalized to E.164")
    func normalize() throws {
        let c = try ProjectConfig.defaults.applying(
            patch: ["signIn": ["phoneNumber": ["testPhoneNumbers": ["+1 650-555-1234": "123456"]]]],
            updateMask: ["signIn.phoneNumber.testPhoneNumbers"]
        )
        #expect(c.testPhoneNumbers == ["+16505551234": "123456"])
        #expect(c.phoneSignInEnabled, "fields outside the mask are kept")
    }

    @Test(
        "invalid test numbers are refused",
        arguments: [
            ["not a number": "123456"], ["+16505551234": "12345"], ["+16505551234": "12a456"],
            Dictionary(uniqueKeysWithValues: (0..<11).map { ("+1650555\(String(1000 + $0))", "123456") }),
        ]
    )
    func invalid(numbers: [String: String]) {
        let patch: [String: JSONValue] = ["signIn": ["phoneNumber": ["testPhoneNumbers": .object(numbers.mapValues(JSONValue.string))]]]
        #expect(throws: AuthError.self) { try ProjectConfig.defaults.applying(patch: patch, updateMask: ["signIn.phoneNumber.testPhoneNumbers"]) }
    }

    @Test("an unknown mask path is refused")
    func unknownPath() {
        #expect(throws: AuthError.self) { try ProjectConfig.defaults.applying(patch: [:], updateMask: ["signIn.nope"]) }
    }

    @Test("without a mask, every known field present is replaced")
    func noMask() throws {
        let c = try ProjectConfig.defaults.applying(
            patch: ["authorizedDomains": ["example.com"], "signIn": ["phoneNumber": ["enabled": false]]], updateMask: nil
        )
        #expect(!c.phoneSignInEnabled)
        #expect(c.authorizedDomains == ["example.com"])
    }

    @Test("the resource carries its name")
    func resource() {
        #expect(ProjectConfig.defaults.resource(projectID: "p")["name"] == .string("projects/p/config"))
    }
}

@Suite("SMS region policy")
struct SMSRegionPolicyTests {
    @Test("no policy allows every region, numbers without a region too")
    func none() {
        #expect(ProjectConfig.defaults.smsRegionPolicy.allows(region: "GB"))
        #expect(ProjectConfig.defaults.smsRegionPolicy.allows(region: nil))
    }

    @Test("a deny list refuses only its regions; an allow list admits only its own (never a number without a region)")
    func modes() {
        let deny = ProjectConfig.SMSRegionPolicy.allowByDefault(disallowed: ["GB"])
        #expect(!deny.allows(region: "GB"))
        #expect(deny.allows(region: "US"))
        #expect(deny.allows(region: nil))
        let allow = ProjectConfig.SMSRegionPolicy.allowlistOnly(allowed: ["US"])
        #expect(allow.allows(region: "US"))
        #expect(!allow.allows(region: "GB"))
        #expect(!allow.allows(region: nil))
    }

    @Test("region codes are stored upper-case")
    func normalized() throws {
        let config = try ProjectConfig(document: ["smsRegionConfig": .object(["allowlistOnly": .object(["allowedRegions": .array(["us", "Ca"])])])])
        #expect(config.smsRegionPolicy == .allowlistOnly(allowed: ["US", "CA"]))
    }
}
