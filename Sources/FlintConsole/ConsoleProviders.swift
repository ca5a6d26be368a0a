import FlintCore
import FlintServer

/// The settings page's sign-in providers: every built-in provider Flint serves (``ProjectConfig/defaultSupportedIdps``),
/// configured or not, each with its toggle and credentials, saved as the admin API's `defaultSupportedIdpConfigs`
/// resources are (sealed with the master key at rest, audited). A client secret is never shown back, only whether one
/// is set; a blank secret field keeps the stored one, and "remove the secret" clears it.
enum ConsoleProviders {
    /// What the console knows of a provider: its name and the words its credentials go by there.
    struct Kind: Sendable {
        let id: String
        let name: String
        let clientIDLabel: String
        let secretLabel: String
        /// Game Center takes no credentials (the apps' bundle IDs are the app links').
        var takesCredentials = true
        /// Sign in with Apple also takes the apps' bundle IDs as ID-token audiences.
        var takesBundleIDs = false
    }

    static let kinds: [Kind] = [
        Kind(id: "google.com", name: "Google", clientIDLabel: "OAuth client ID", secretLabel: "Client secret"),
        Kind(id: "apple.com", name: "Apple", clientIDLabel: "Services ID", secretLabel: "Client secret", takesBundleIDs: true),
        Kind(id: "microsoft.com", name: "Microsoft", clientIDLabel: "Application (client) ID", secretLabel: "Client secret"),
        Kind(id: "yahoo.com", name: "Yahoo", clientIDLabel: "Client ID", secretLabel: "Client secret"),
        Kind(id: "facebook.com", name: "Facebook", clientIDLabel: "App ID", secretLabel: "App secret"),
        Kind(id: "github.com", name: "GitHub", clientIDLabel: "OAuth app client ID", secretLabel: "Client secret"),
        Kind(id: "twitter.com", name: "X (Twitter)", clientIDLabel: "API key", secretLabel: "API key secret"),
        Kind(id: "playgames.google.com", name: "Google Play Games", clientIDLabel: "OAuth client ID", secretLabel: "Client secret"),
        Kind(id: "gc.apple.com", name: "Game Center", clientIDLabel: "", secretLabel: "", takesCredentials: false),
    ]

    /// The kind of a built-in provider; one the console has no words for gets generic ones.
    static func kind(_ id: String) -> Kind? {
        guard ProjectConfig.defaultSupportedIdps.contains(id) else { return nil }
        return kinds.first { $0.id == id } ?? Kind(id: id, name: id, clientIDLabel: "Client ID", secretLabel: "Client secret")
    }

    /// Every built-in provider, in the console's order, as the template shows it; `errors` maps a provider ID to the
    /// config's refusal of its last form.
    static func rows(_ config: ProjectConfig, errors: [String: String] = [:]) -> [[String: Any]] {
        let stored = config.idpResources(.defaultSupported)
        let ids =
            kinds.map(\.id).filter(ProjectConfig.defaultSupportedIdps.contains)
            + ProjectConfig.defaultSupportedIdps.filter { id in !kinds.contains { $0.id == id } }
        return ids.compactMap(kind).map { kind in
            let resource = stored[kind.id]
            var row: [String: Any] = [
                "id": kind.id, "name": kind.name, "configured": resource != nil, "enabled": resource?["enabled"]?.boolValue ?? false,
                "clientId": resource?["clientId"]?.stringValue ?? "", "clientIdLabel": kind.clientIDLabel, "secretLabel": kind.secretLabel,
                "secretSet": !(resource?["clientSecret"]?.stringValue ?? "").isEmpty, "takesCredentials": kind.takesCredentials,
                "takesBundleIds": kind.takesBundleIDs,
                "bundleIds": (resource?["appleSignInConfig"]?["bundleIds"]?.arrayValue ?? []).compactMap(\.stringValue).joined(separator: "\n"),
                "slug": slug(kind.id),
            ]
            if let error = errors[kind.id] { row["error"] = error }
            return row
        }
    }

    /// A provider ID as the page's element IDs and field names carry it: `github.com` → `github-com`.
    static func slug(_ id: String) -> String { String(id.map { $0 == "." ? "-" : $0 }) }

    /// The provider's resource after its form: the stored one (kept fields such as Apple's code-flow key included) with
    /// the form's toggle, client ID, bundle IDs and — when one was typed — secret.
    static func resource(_ kind: Kind, form: [String: String], current: [String: JSONValue]?) -> [String: JSONValue] {
        var resource = current ?? [:]
        // Each provider's form names its checkboxes after it (`enabled-github-com`): checkboxes of one name across the
        // page would read as one group to assistive technology.
        let slug = slug(kind.id)
        resource["enabled"] = ConsoleSettingsGroup.flag(form, "enabled-\(slug)")
        guard kind.takesCredentials else { return resource }
        let clientID = (form["clientId"] ?? "").trimmingSpaces
        resource["clientId"] = clientID.isEmpty ? nil : .string(clientID)
        let secret = (form["clientSecret"] ?? "").trimmingSpaces
        if !secret.isEmpty {
            resource["clientSecret"] = .string(secret)
        } else if form["clearSecret-\(slug)"] == "true" {
            resource["clientSecret"] = nil
        }
        if kind.takesBundleIDs {
            var apple = resource["appleSignInConfig"]?.objectValue ?? [:]
            let ids = ConsoleSettingsGroup.list(form["bundleIds"])
            apple["bundleIds"] = ids.isEmpty ? nil : .array(ids.map(JSONValue.string))
            resource["appleSignInConfig"] = apple.isEmpty ? nil : .object(apple)
        }
        return resource
    }
}
