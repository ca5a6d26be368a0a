import FlintCore
import FlintServer

/// The settings forms of Flint's own app links section: the iOS apps and Android apps that may open action links
/// (`flint.appLinks`, served as `/.well-known/apple-app-site-association` and `/.well-known/assetlinks.json`) and the
/// other hosts that serve the action page (`flint.linkDomains`). Lists are taken as typed (one item a line, or
/// separated by commas or spaces); the config checks them.
extension ConsoleSettingsGroup {
    /// `flint.appLinks.apple`: the team ID and bundle IDs; both empty remove the iOS apps.
    static let appleApps = ConsoleSettingsGroup(
        name: "ios-apps", mask: ["flint.appLinks"],
        fields: [("teamId", "flint.appLinks.apple.teamId"), ("bundleIds", "flint.appLinks.apple.bundleIds")], echo: ["teamId", "bundleIds"]
    ) { form, config in
        var links = currentAppLinks(config)
        let team = (form["teamId"] ?? "").trimmingSpaces
        let bundles = list(form["bundleIds"])
        let apple: JSONValue = ["teamId": .string(team), "bundleIds": .array(bundles.map(JSONValue.string))]
        links["apple"] = team.isEmpty && bundles.isEmpty ? nil : apple
        return appLinksPatch(links)
    }

    /// `flint.appLinks.android`: adds (or replaces) the app `packageName` with its `fingerprints`, or takes `remove` out.
    static let androidApps = ConsoleSettingsGroup(
        name: "android-apps", mask: ["flint.appLinks"],
        fields: [("packageName", "flint.appLinks.android[].packageName"), ("fingerprints", "flint.appLinks.android[].sha256CertFingerprints")],
        echo: ["packageName", "fingerprints"]
    ) { form, config in
        var links = currentAppLinks(config)
        var apps = links["android"]?.arrayValue ?? []
        if let removed = form["remove"] {
            apps.removeAll { $0["packageName"]?.stringValue == removed }
        } else {
            let name = (form["packageName"] ?? "").trimmingSpaces
            let app: JSONValue = ["packageName": .string(name), "sha256CertFingerprints": .array(list(form["fingerprints"]).map(JSONValue.string))]
            if let index = apps.firstIndex(where: { $0["packageName"]?.stringValue == name }) { apps[index] = app } else { apps.append(app) }
        }
        links["android"] = apps.isEmpty ? nil : .array(apps)
        return appLinksPatch(links)
    }

    /// `flint.linkDomains`: adds `linkDomain`, or takes `remove` out.
    static let linkDomains = ConsoleSettingsGroup(
        name: "link-domains", mask: ["flint.linkDomains"], fields: [("linkDomain", "flint.linkDomains")], echo: ["linkDomain"]
    ) { form, config in
        var domains = config.linkDomains
        if let removed = form["remove"] {
            domains.removeAll { $0 == removed }
        } else {
            let added = (form["linkDomain"] ?? "").trimmingSpaces
            if !domains.contains(where: { $0.lowercased() == added.lowercased() }) { domains.append(added) }
        }
        var flint: [String: JSONValue] = [:]
        flint["linkDomains"] = domains.isEmpty ? nil : .array(domains.map(JSONValue.string))
        return ["flint": .object(flint)]
    }

    /// The items of a list field: separated by line breaks, commas or spaces.
    static func list(_ text: String?) -> [String] {
        (text ?? "").split { $0.isWhitespace || $0 == "," }.map(String.init)
    }

    private static func currentAppLinks(_ config: ProjectConfig) -> [String: JSONValue] {
        config.document["flint"]?["appLinks"]?.objectValue ?? [:]
    }

    private static func appLinksPatch(_ links: [String: JSONValue]) -> [String: JSONValue] {
        var flint: [String: JSONValue] = [:]
        flint["appLinks"] = links.isEmpty ? nil : .object(links)
        return ["flint": .object(flint)]
    }
}
