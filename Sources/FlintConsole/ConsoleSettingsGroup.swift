import FlintCore
import FlintServer

/// One form of the console's settings page: the config paths it changes (its `updateMask`), how its submitted form
/// becomes the admin config API's patch, and which form field an `INVALID_CONFIG` detail belongs to.
///
/// The console checks nothing itself: a value it cannot read as what the field holds (a checkbox's other value, a
/// number that is not one) goes into the patch as the string it got, so the config's own validation refuses it with
/// Firebase's message, as it would refuse the same value from a script.
struct ConsoleSettingsGroup: Sendable {
    /// The last path component of the form's action, `/console/settings/{name}`.
    let name: String
    /// The `updateMask` of every change through this form.
    let mask: [String]
    /// The form fields, each with the config path (as the validation errors name it) it edits; the first field takes
    /// an error that names none of them.
    let fields: [(field: String, path: String)]
    /// The text fields whose submitted values a refused form shows again (the others show the current config).
    var echo: [String] = []
    /// The patch for a submitted form, given the current config.
    let patch: @Sendable ([String: String], ProjectConfig) -> [String: JSONValue]

    /// The field an error `detail` belongs to: the field whose path the detail names (the longest such path).
    func field(for detail: String) -> String {
        fields.filter { detail.contains($0.path) }.max { $0.path.count < $1.path.count }?.field ?? fields.first?.field ?? name
    }

    /// A checkbox (value `true`): `false` when absent; any other value is passed on for the config to refuse.
    static func flag(_ form: [String: String], _ key: String) -> JSONValue {
        guard let value = form[key] else { return .bool(false) }
        return value == "true" ? .bool(true) : .string(value)
    }

    /// A choice from a `<select>`: `nil` (the path is cleared) when empty.
    static func choice(_ form: [String: String], _ key: String) -> JSONValue? {
        guard let value = form[key], !value.isEmpty else { return nil }
        return .string(value)
    }

    /// An integer field: a number when it reads as one, else the text as sent.
    static func integer(_ form: [String: String], _ key: String) -> JSONValue {
        let text = (form[key] ?? "").trimmingSpaces
        return Int(text).map { .number(Double($0)) } ?? .string(text)
    }

    /// The settings forms, by name.
    static let all: [String: ConsoleSettingsGroup] = Dictionary(
        uniqueKeysWithValues: ([
            phone, email, anonymous, mfa, domains, appLinks, appleApps, androidApps, linkDomains, ConsoleBlockingFunctions.group,
            ConsoleProviderGrid.group,
        ]
            + ConsolePolicies.groups + [ConsoleSessionLifetimes.group]).map { ($0.name, $0) })

    /// Phone sign-in on or off, its app-verification policy (empty: the server's default by mode), and the default
    /// phone region the console reads national numbers in (empty: unset).
    static let phone = ConsoleSettingsGroup(
        name: "phone", mask: ["signIn.phoneNumber.enabled", "signIn.phoneNumber.appVerification", "flint.defaultPhoneRegion"],
        fields: [
            ("phoneEnabled", "signIn.phoneNumber.enabled"), ("appVerification", "signIn.phoneNumber.appVerification"),
            ("defaultPhoneRegion", "flint.defaultPhoneRegion"),
        ],
        echo: ["defaultPhoneRegion"]
    ) { form, _ in
        var phone: [String: JSONValue] = ["enabled": flag(form, "phoneEnabled")]
        phone["appVerification"] = choice(form, "appVerification")
        var flint: [String: JSONValue] = [:]
        flint["defaultPhoneRegion"] = choice(form, "defaultPhoneRegion").flatMap { $0.stringValue?.trimmingSpaces }.map(JSONValue.string)
        return ["signIn": ["phoneNumber": .object(phone)], "flint": .object(flint)]
    }

    /// Email sign-in on or off, whether it needs a password (Firebase's `passwordRequired`: off lets email links
    /// sign in too), and email enumeration protection (`emailPrivacyConfig.enableImprovedEmailPrivacy`).
    static let email = ConsoleSettingsGroup(
        name: "email", mask: ["signIn.email.enabled", "signIn.email.passwordRequired", "emailPrivacyConfig.enableImprovedEmailPrivacy"],
        fields: [
            ("emailEnabled", "signIn.email.enabled"), ("passwordRequired", "signIn.email.passwordRequired"),
            ("emailPrivacy", "emailPrivacyConfig.enableImprovedEmailPrivacy"),
        ]
    ) { form, _ in
        [
            "signIn": ["email": ["enabled": flag(form, "emailEnabled"), "passwordRequired": flag(form, "passwordRequired")]],
            "emailPrivacyConfig": ["enableImprovedEmailPrivacy": flag(form, "emailPrivacy")],
        ]
    }

    /// Anonymous sign-in on or off.
    static let anonymous = ConsoleSettingsGroup(
        name: "anonymous", mask: ["signIn.anonymous.enabled"], fields: [("anonymousEnabled", "signIn.anonymous.enabled")]
    ) { form, _ in
        ["signIn": ["anonymous": ["enabled": flag(form, "anonymousEnabled")]]]
    }

    /// The `mfa` section: its state, SMS second factors (`enabledProviders`) and the TOTP provider config.
    static let mfa = ConsoleSettingsGroup(
        name: "mfa", mask: ["mfa.state", "mfa.enabledProviders", "mfa.providerConfigs"],
        fields: [
            ("mfaState", "mfa.state"), ("smsFactor", "mfa.enabledProviders"), ("totpFactor", "mfa.providerConfigs"),
            ("adjacentIntervals", "totpProviderConfig.adjacentIntervals"),
        ]
    ) { form, _ in
        let sms = flag(form, "smsFactor")
        let providers: JSONValue = sms == .bool(true) ? [.string("PHONE_SMS")] : sms == .bool(false) ? [] : [sms]
        let totp = flag(form, "totpFactor")
        let totpState: JSONValue = totp == .bool(true) ? "ENABLED" : totp == .bool(false) ? "DISABLED" : totp
        let totpConfig: JSONValue = ["state": totpState, "totpProviderConfig": ["adjacentIntervals": integer(form, "adjacentIntervals")]]
        var mfa: [String: JSONValue] = ["enabledProviders": providers, "providerConfigs": [totpConfig]]
        mfa["state"] = choice(form, "mfaState")
        return ["mfa": .object(mfa)]
    }

    /// Adds `domain` to the authorized domains, or takes `remove` out of them.
    static let domains = ConsoleSettingsGroup(
        name: "domains", mask: ["authorizedDomains"], fields: [("domain", "authorizedDomains")], echo: ["domain"]
    ) { form, config in
        var list = config.authorizedDomains
        if let removed = form["remove"] {
            list.removeAll { $0 == removed }
        } else {
            let added = (form["domain"] ?? "").trimmingSpaces
            if !list.contains(added.lowercased()) { list.append(added) }
        }
        return ["authorizedDomains": .array(list.map(JSONValue.string))]
    }

    /// `mobileLinksConfig.domain`: which domain mobile action links use (empty: unset).
    static let appLinks = ConsoleSettingsGroup(
        name: "app-links", mask: ["mobileLinksConfig.domain"], fields: [("mobileLinksDomain", "mobileLinksConfig")]
    ) { form, _ in
        var links: [String: JSONValue] = [:]
        links["domain"] = choice(form, "mobileLinksDomain")
        return ["mobileLinksConfig": .object(links)]
    }
}
