import FlintCore
import Testing

@Suite("Project config: flint.smsLimits")
struct ProjectConfigSMSLimitsTests {
    @Test("defaults: 5 per number per hour, 10 per day, 30 per address per hour, 100 per day, 300 per country per hour, 3000 a day; shown")
    func defaults() {
        let limits = ProjectConfig.defaults.smsLimits
        #expect(limits == ProjectConfig.SMSLimits(perIPPerHour: 30, perIPPerDay: 100, perCountryPerHour: 300, dailyBudget: 3000))
        let shown = ProjectConfig.defaults.resource(projectID: "p")["flint"]?["smsLimits"]
        #expect(limits.perNumberPerHour == 5 && limits.perNumberPerDay == 10)
        #expect(
            shown == [
                "perNumberPerHour": .number(5), "perNumberPerDay": .number(10), "perIPPerHour": .number(30), "perIPPerDay": .number(100),
                "perCountryPerHour": .number(300), "dailyBudget": .number(3000),
            ])
        #expect(ProjectConfig.defaults.document["flint"] == nil, "the defaults are shown, not stored")
    }

    @Test("one field by its own mask path; the others keep their defaults; clearing the section restores them")
    func fieldByField() throws {
        let one = try ProjectConfig.defaults.applying(
            patch: ["flint": ["smsLimits": ["dailyBudget": .number(50)]]], updateMask: ["flint.smsLimits.dailyBudget"])
        #expect(one.smsLimits.dailyBudget == 50)
        #expect(one.smsLimits.perIPPerHour == 30)
        let unmasked = try one.applying(patch: ["flint": ["smsLimits": ["perIPPerDay": .number(0)]]], updateMask: nil)
        #expect(unmasked.smsLimits.perIPPerDay == 0, "0 turns a limit off")
        #expect(unmasked.smsLimits.dailyBudget == 50, "a patch without a mask takes only the leaves it sends")
        let cleared = try unmasked.applying(patch: [:], updateMask: ["flint.smsLimits"])
        #expect(cleared.smsLimits == .defaults)
    }

    @Test(
        "malformed limits are refused",
        arguments: [
            ["flint": ["smsLimits": "lots"]], ["flint": ["smsLimits": ["perIPPerHour": .number(-1)]]],
            ["flint": ["smsLimits": ["perIPPerHour": .number(1.5)]]], ["flint": ["smsLimits": ["dailyBudget": "1000"]]],
            ["flint": ["smsLimits": ["perMinute": .number(1)]]], ["flint": ["smsLimits": ["dailyBudget": .number(2e9)]]],
        ] as [[String: JSONValue]])
    func malformed(_ document: [String: JSONValue]) {
        #expect(throws: AuthError.self) { _ = try ProjectConfig(document: document) }
    }
}
