import FlintCore
import FlintServer

/// What the settings page shows of a config: each setting's current value, and the choices of its `<select>` with
/// the current one selected. The SMS code lifetime is a server flag (`--sms-code-ttl`), shown but not editable.
struct ConsoleSettingsView {
    let config: ProjectConfig
    /// The server's SMS code lifetime.
    let smsCodeTTL: Duration
    /// Whether the server runs in dev mode (app verification then defaults to `OFF`).
    let devMode: Bool

    /// The template's data.
    var data: [String: Any] {
        let document = config.document
        let totp = document["mfa"]?["providerConfigs"]?.arrayValue?.first { $0["totpProviderConfig"] != nil }
        var intervals = ProjectConfig.defaultTOTPAdjacentIntervals
        if case .number(let n)? = totp?["totpProviderConfig"]?["adjacentIntervals"] { intervals = Int(n) }
        let defaultMode: ProjectConfig.AppVerificationMode = devMode ? .off : .enforce
        return [
            "phoneEnabled": config.phoneSignInEnabled,
            "appVerification": (config.appVerification ?? defaultMode).rawValue,
            "appVerificationOptions": Self.options(
                [("", "Server default (\(defaultMode.rawValue))")] + ProjectConfig.AppVerificationMode.allCases.map { ($0.rawValue, $0.rawValue) },
                selected: config.appVerification?.rawValue ?? ""),
            "defaultPhoneRegion": config.defaultPhoneRegion ?? "",
            "smsCodeTTL": "\(smsCodeTTL.components.seconds) seconds",
            "emailEnabled": config.emailSignInEnabled,
            "passwordRequired": config.passwordRequired,
            "anonymousEnabled": config.anonymousSignInEnabled,
            "mfaState": config.mfaState.rawValue,
            "mfaStateOptions": Self.options(ProjectConfig.MFAState.allCases.map { ($0.rawValue, $0.rawValue) }, selected: config.mfaState.rawValue),
            "smsFactor": document["mfa"]?["enabledProviders"]?.arrayValue?.contains("PHONE_SMS") ?? false,
            "totpFactor": totp?["state"]?.stringValue == ProjectConfig.MFAState.enabled.rawValue,
            "adjacentIntervals": intervals,
            "domains": config.authorizedDomains.map { ["domain": $0] },
            "mobileLinksDomain": config.mobileLinksDomain ?? "unset",
            "mobileLinksOptions": Self.options(
                [("", "Unset"), ("HOSTING_DOMAIN", "HOSTING_DOMAIN"), ("FIREBASE_DYNAMIC_LINK_DOMAIN", "FIREBASE_DYNAMIC_LINK_DOMAIN")],
                selected: config.mobileLinksDomain ?? ""),
            "appleAppIDs": config.appleAppIDs,
            "teamId": document["flint"]?["appLinks"]?["apple"]?["teamId"]?.stringValue ?? "",
            "bundleIds": config.appleBundleIDs.joined(separator: "\n"),
            "androidApps": config.androidApps.map { ["packageName": $0.packageName, "fingerprints": $0.fingerprints.joined(separator: ", ")] },
            "linkDomains": config.linkDomains.map { ["domain": $0] },
        ]
    }

    /// A `<select>`'s options: value, label and whether it is the selected one.
    private static func options(_ choices: [(value: String, label: String)], selected: String) -> [[String: Any]] {
        choices.map { ["value": $0.value, "label": $0.label, "selected": $0.value == selected] }
    }
}
