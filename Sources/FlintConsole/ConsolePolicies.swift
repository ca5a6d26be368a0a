import FlintCore
import FlintServer

/// The settings page's policies: the password policy (`passwordPolicyConfig`), the SMS region policy
/// (`smsRegionConfig`) and Flint's SMS spend limits (`flint.smsLimits`), each one settings group saved through the
/// admin config API's update, so the config's own checks refuse a bad value in Firebase's words beside its field.
enum ConsolePolicies {
    /// The password policy: enforcement, upgrade at sign-in, lengths and required character classes. The lengths are
    /// passed on as typed (a number when they read as one) for the config to check.
    static let passwordPolicy = ConsoleSettingsGroup(
        name: "password-policy", mask: ["passwordPolicyConfig"],
        fields: [
            ("passwordPolicyEnforcement", "passwordPolicyEnforcementState"), ("forceUpgradeOnSignin", "forceUpgradeOnSignin"),
            ("minPasswordLength", "minPasswordLength"), ("maxPasswordLength", "maxPasswordLength"),
        ] + PasswordPolicy.characterClassOptions.map { ($0.name, $0.name) },
        echo: ["minPasswordLength", "maxPasswordLength"]
    ) { form, _ in
        var options: [String: JSONValue] = ["minPasswordLength": ConsoleSettingsGroup.integer(form, "minPasswordLength")]
        if !(form["maxPasswordLength"] ?? "").trimmingSpaces.isEmpty {
            options["maxPasswordLength"] = ConsoleSettingsGroup.integer(form, "maxPasswordLength")
        }
        for option in PasswordPolicy.characterClassOptions { options[option.name] = ConsoleSettingsGroup.flag(form, option.name) }
        var config: [String: JSONValue] = [
            "forceUpgradeOnSignin": ConsoleSettingsGroup.flag(form, "forceUpgradeOnSignin"),
            "passwordPolicyVersions": [["customStrengthOptions": .object(options)]],
        ]
        config["passwordPolicyEnforcementState"] = ConsoleSettingsGroup.choice(form, "passwordPolicyEnforcement")
        return ["passwordPolicyConfig": .object(config)]
    }

    /// The SMS region policy: every region but a deny list, or only an allow list; the regions typed as two-letter codes
    /// separated by commas or spaces.
    static let smsRegions = ConsoleSettingsGroup(
        name: "sms-regions", mask: ["smsRegionConfig"], fields: [("smsRegions", "smsRegionConfig")], echo: ["smsRegions"]
    ) { form, _ in
        let regions = (form["smsRegions"] ?? "").split { $0 == "," || $0 == " " || $0 == "\n" || $0 == "\r" }.map {
            JSONValue.string(String($0))
        }
        let allowlist = form["smsRegionMode"] == "allowlistOnly"
        let mode = allowlist ? "allowlistOnly" : "allowByDefault"
        return ["smsRegionConfig": [mode: [allowlist ? "allowedRegions" : "disallowedRegions": .array(regions)]]]
    }

    /// Flint's SMS spend limits, each field a whole number (0 turns it off).
    static let smsLimits = ConsoleSettingsGroup(
        name: "sms-limits", mask: ["flint.smsLimits"],
        fields: ProjectConfig.SMSLimits.fields.map { ($0, "flint.smsLimits.\($0)") }, echo: ProjectConfig.SMSLimits.fields
    ) { form, _ in
        var limits: [String: JSONValue] = [:]
        for field in ProjectConfig.SMSLimits.fields { limits[field] = ConsoleSettingsGroup.integer(form, field) }
        return ["flint": ["smsLimits": .object(limits)]]
    }

    /// The groups, for the settings page's table of forms.
    static let groups = [passwordPolicy, smsRegions, smsLimits]

    /// Labels of the SMS limits, in the page's order.
    static let limitLabels: [String: String] = [
        "perNumberPerHour": "Codes per number per hour", "perNumberPerDay": "Codes per number per day",
        "perIPPerHour": "Texts per client address per hour", "perIPPerDay": "Texts per client address per day",
        "perCountryPerHour": "Texts per destination country per hour", "dailyBudget": "Texts per UTC day (the budget)",
    ]

    /// What the sections show of `config`.
    static func data(_ config: ProjectConfig) -> [String: Any] {
        let document = config.document["passwordPolicyConfig"]
        let options = document?["passwordPolicyVersions"]?.arrayValue?.first?["customStrengthOptions"]
        let state = document?["passwordPolicyEnforcementState"]?.stringValue ?? "OFF"
        var data: [String: Any] = [
            "passwordPolicyEnforcement": state,
            "passwordPolicyOptions": ["OFF", "ENFORCE"].map { ["value": $0, "label": $0, "selected": $0 == state] as [String: Any] },
            "forceUpgradeOnSignin": document?["forceUpgradeOnSignin"]?.boolValue ?? false,
            "minPasswordLength": whole(options?["minPasswordLength"]) ?? PasswordPolicy.minimumLength,
            "maxPasswordLength": whole(options?["maxPasswordLength"]).map(String.init) ?? "",
            "characterClasses": PasswordPolicy.characterClassOptions.map { option -> [String: Any] in
                ["name": option.name, "label": classLabels[option.name] ?? option.name, "on": options?[option.name]?.boolValue ?? false]
            },
        ]
        switch config.smsRegionPolicy {
        case .allowByDefault(let disallowed):
            data["smsRegions"] = disallowed.sorted().joined(separator: ", ")
            data["smsRegionSummary"] = disallowed.isEmpty ? "every region" : "every region but \(disallowed.sorted().joined(separator: ", "))"
            data["smsRegionModes"] = modes(allowlist: false)
        case .allowlistOnly(let allowed):
            data["smsRegions"] = allowed.sorted().joined(separator: ", ")
            data["smsRegionSummary"] = allowed.isEmpty ? "no region" : "only \(allowed.sorted().joined(separator: ", "))"
            data["smsRegionModes"] = modes(allowlist: true)
        }
        let limits = config.smsLimits.json
        data["smsLimits"] = ProjectConfig.SMSLimits.fields.map { field -> [String: Any] in
            ["name": field, "label": limitLabels[field] ?? field, "value": whole(limits[field]) ?? 0]
        }
        for field in ProjectConfig.SMSLimits.fields { data[field] = whole(limits[field]) ?? 0 }
        return data
    }

    /// A stored whole number (the config keeps numbers as JSON numbers).
    private static func whole(_ value: JSONValue?) -> Int? {
        guard case .number(let n)? = value else { return nil }
        return Int(exactly: n)
    }

    /// The region policy's two modes as `<select>` options.
    private static func modes(allowlist: Bool) -> [[String: Any]] {
        [
            ["value": "allowByDefault", "label": "Every region except those listed", "selected": !allowlist],
            ["value": "allowlistOnly", "label": "Only the regions listed", "selected": allowlist],
        ]
    }

    /// The character classes' labels.
    private static let classLabels = [
        "containsLowercaseCharacter": "A lower-case letter", "containsUppercaseCharacter": "An upper-case letter",
        "containsNumericCharacter": "A digit", "containsNonAlphanumericCharacter": "A character that is neither letter nor digit",
    ]
}
