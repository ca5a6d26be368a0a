import FlintCore
import FlintServer

/// The settings page's sign-in methods grid: every way of signing in Flint serves, one row each — email and password,
/// email link, phone, anonymous, the built-in identity providers (``ConsoleProviders``) and the project's generic OIDC
/// and SAML providers (each with a page of its own, ``ConsoleIdentityProviders``) — with its icon, whether it is on, whether its credentials are set, what it asks of second factors
/// (``ProjectConfig/mfaState(forFirstFactor:)``), and for an operator who may write its on/off switch, a link to its
/// settings and, for a provider with a web sign-in, a test sign-in (``ConsoleRoutes/startProviderTest(_:context:)``).
enum ConsoleProviderGrid {
    /// The built-in providers whose web sign-in the hosted handler runs (the others sign in from the device only:
    /// Game Center with GameKit, Play Games with a server auth code).
    static let redirectProviders: Set<String> = [
        "google.com", "apple.com", "microsoft.com", "yahoo.com", "facebook.com", "github.com", "twitter.com",
    ]

    /// The sign-in methods that are not identity providers: their ID, name, icon and settings section.
    private static let methods: [(id: String, name: String, icon: String, section: String)] = [
        ("password", "Email and password", "password", "#email"), ("emailLink", "Email link", "emailLink", "#email"),
        ("phone", "Phone", "phone", "#phone"), ("anonymous", "Anonymous", "anonymous", "#anonymous"),
    ]

    /// Whether `id` has a web sign-in an operator can test.
    static func isTestable(_ id: String) -> Bool { redirectProviders.contains(id) || ProjectConfig.isOIDCProviderID(id) }

    /// The grid's rows for `config`.
    static func rows(_ config: ProjectConfig) -> [[String: Any]] {
        var rows: [[String: Any]] = methods.map { method in
            let enabled: Bool =
                switch method.id {
                case "password": config.emailSignInEnabled
                case "emailLink": config.emailSignInEnabled && !config.passwordRequired
                case "phone": config.phoneSignInEnabled
                default: config.anonymousSignInEnabled
                }
            return [
                "id": method.id, "name": method.name, "icon": ConsoleUserBadges.badge(method.icon)["icon"] ?? "", "enabled": enabled,
                "configured": true, "credentials": "none needed", "mfa": secondFactor(method.id, config),
                "edit": "/console/settings" + method.section,
            ]
        }
        for provider in ConsoleProviders.rows(config) {
            guard let id = provider["id"] as? String, let name = provider["name"] as? String, let slug = provider["slug"] as? String else { continue }
            let resource = config.idpResources(.defaultSupported)[id]
            var row = providerRow(id, name: name, resource: resource, config: config)
            if provider["takesCredentials"] as? Bool == false { row["credentials"] = "none needed" }
            row["edit"] = "/console/settings?edit=\(slug)#provider-\(slug)"
            rows.append(row)
        }
        for collection in [ProjectConfig.IdpCollection.oauth, .saml] {
            for (id, resource) in config.idpResources(collection).sorted(by: { $0.key < $1.key }) {
                var row = providerRow(id, name: resource["displayName"]?.stringValue ?? id, resource: resource, config: config)
                // Its own page (``ConsoleIdentityProviders``): the values for everyone, the form for operators who write.
                (row["page"], row["edit"]) = ("/console/providers/\(id)", "/console/providers/\(id)")
                if collection == .saml {
                    let count = resource["idpConfig"]?["idpCertificates"]?.arrayValue?.count ?? 0
                    row["credentials"] = "\(count) IdP certificate\(count == 1 ? "" : "s") (sign-in not served yet)"
                }
                rows.append(row)
            }
        }
        return rows
    }

    /// An identity provider's row.
    private static func providerRow(_ id: String, name: String, resource: [String: JSONValue]?, config: ProjectConfig) -> [String: Any] {
        let clientID = !(resource?["clientId"]?.stringValue ?? "").isEmpty
        // Sign in with Apple's client secret may be made from its code-flow key instead.
        let secret = !(resource?["clientSecret"]?.stringValue ?? "").isEmpty || resource?["appleSignInConfig"]?["codeFlowConfig"] != nil
        let enabled = resource?["enabled"]?.boolValue ?? false
        let credentials =
            switch (clientID, secret) {
            case (true, true): "client ID and secret set"
            case (true, false): "client ID set, no secret (no web sign-in)"
            case (false, _): "not set"
            }
        var row: [String: Any] = [
            "id": id, "name": name, "icon": ConsoleUserBadges.badge(id)["icon"] ?? "", "enabled": enabled, "configured": resource != nil,
            "credentials": credentials, "mfa": secondFactor(id, config),
        ]
        if isTestable(id) {
            if enabled && clientID && secret { row["testable"] = true } else { row["untestable"] = "needs it on, with its client ID and secret" }
        }
        return row
    }

    /// What a sign-in by `id` asks of second factors, in words.
    static func secondFactor(_ id: String, _ config: ProjectConfig) -> String {
        if id == "phone" || id == "anonymous" { return "never (cannot carry one)" }
        let key = id == "emailLink" ? "password" : id
        switch config.mfaState(forFirstFactor: key) {
        case .disabled: return config.mfaState == .disabled ? "off (MFA disabled)" : "not asked"
        case .enabled: return "asked when enrolled"
        case .mandatory: return "must enrol"
        }
    }

    /// The choices of the second-factor form: one `<select>` per first factor that can carry one (email link shares
    /// `password`, as its ID tokens do), with its own state selected or "as the project" (empty).
    static func firstFactorChoices(_ config: ProjectConfig) -> [[String: Any]] {
        let own = config.mfaFirstFactorStates
        let ids =
            ["password"] + ConsoleProviders.rows(config).compactMap { $0["id"] as? String }
            + config.idpResources(.oauth).keys.sorted()
        let names: [String: String] = Dictionary(
            uniqueKeysWithValues: ConsoleProviders.kinds.map { ($0.id, $0.name) } + [("password", "Email (password and link)")])
        return ids.map { id in
            let chosen = own[id]?.rawValue ?? ""
            let options: [(String, String)] = [
                ("", "As the project (\(config.mfaState.rawValue))"), ("DISABLED", "Not asked"), ("ENABLED", "Asked when enrolled"),
                ("MANDATORY", "Must enrol"),
            ]
            return [
                "id": id, "name": names[id] ?? id, "slug": ConsoleProviders.slug(id),
                "options": options.map { ["value": $0.0, "label": $0.1, "selected": $0.0 == chosen] },
            ]
        }
    }

    /// The second-factor form (`/console/settings/mfa-first-factors`): `flint.mfaFirstFactors` from its `mfa:<provider>`
    /// choices (an empty choice leaves the provider to the project's state).
    static let group = ConsoleSettingsGroup(
        name: "mfa-first-factors", mask: ["flint.mfaFirstFactors"], fields: [("mfaFirstFactors", "flint.mfaFirstFactors")]
    ) { form, _ in
        var states: [String: JSONValue] = [:]
        for (name, value) in form where name.hasPrefix("mfa:") && !value.isEmpty { states[String(name.dropFirst(4))] = .string(value) }
        return ["flint": ["mfaFirstFactors": .object(states)]]
    }
}
