package import FlintTexts

/// The email sections of the config: Firebase's `signIn.email` and `emailPrivacyConfig`, and Flint's own `flint`
/// section (app links for the action page, extra link domains, email and SMS template overrides).
extension ProjectConfig {
    /// Whether email sign-in (password or link) is enabled (`signIn.email.enabled`, default on).
    package var emailSignInEnabled: Bool {
        if case .bool(let b)? = document["signIn"]?["email"]?["enabled"] { return b }
        return true
    }

    /// Whether email sign-in needs a password, i.e. email links are off (`signIn.email.passwordRequired`).
    package var passwordRequired: Bool {
        if case .bool(let b)? = document["signIn"]?["email"]?["passwordRequired"] { return b }
        return false
    }

    /// Whether email-link sign-in is allowed: the project's email provider on without a required password; in a
    /// tenant, its own `enableEmailLinkSignin`, whatever `allowPasswordSignup` says (Identity Platform keeps the two
    /// switches apart: a tenant may take links and refuse passwords).
    package var emailLinkSignInEnabled: Bool {
        tenantEmailLinkSignIn ?? (emailSignInEnabled && !passwordRequired)
    }

    /// Email-enumeration protection (`emailPrivacyConfig.enableImprovedEmailPrivacy`): `createAuthUri` reveals
    /// nothing, and unknown emails answer like wrong passwords.
    package var improvedEmailPrivacy: Bool {
        if case .bool(let b)? = document["emailPrivacyConfig"]?["enableImprovedEmailPrivacy"] { return b }
        return false
    }

    /// The iOS apps that may open action links (`TEAMID.bundle.id`), from `flint.appLinks.apple`.
    package var appleAppIDs: [String] {
        guard let apple = document["flint"]?["appLinks"]?["apple"] else { return [] }
        let team = apple["teamId"]?.stringValue ?? ""
        let bundles = apple["bundleIds"]?.arrayValue?.compactMap(\.stringValue) ?? []
        return bundles.map { "\(team).\($0)" }
    }

    /// The configured iOS bundle IDs.
    package var appleBundleIDs: [String] {
        document["flint"]?["appLinks"]?["apple"]?["bundleIds"]?.arrayValue?.compactMap(\.stringValue) ?? []
    }

    /// Android apps that may open action links: package name and signing-certificate SHA-256 fingerprints.
    package var androidApps: [(packageName: String, fingerprints: [String])] {
        (document["flint"]?["appLinks"]?["android"]?.arrayValue ?? []).compactMap { app in
            guard let name = app["packageName"]?.stringValue else { return nil }
            return (name, app["sha256CertFingerprints"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        }
    }

    /// Extra hosts (besides the public URL's) that serve Flint's action page; `linkDomain` / `dynamicLinkDomain`
    /// pick one of them.
    package var linkDomains: [String] {
        document["flint"]?["linkDomains"]?.arrayValue?.compactMap(\.stringValue) ?? []
    }

    /// The email texts: Flint's built-in templates with the operator's overrides (`flint.emailTemplates`, by
    /// locale then request type) applied.
    package var emailTemplates: EmailTemplates {
        guard let overrides = document["flint"]?["emailTemplates"], let parsed = try? EmailTemplates.parseOverrides(overrides) else {
            return .builtIn
        }
        return EmailTemplates.builtIn.merging(overrides: parsed)
    }

    /// The SMS texts: Flint's built-in texts with the operator's overrides (`flint.smsTemplates`, by locale then
    /// purpose) applied.
    package var smsTemplates: SMSTemplates {
        guard let overrides = document["flint"]?["smsTemplates"], let parsed = try? SMSTemplates.parseOverrides(overrides) else {
            return .builtIn
        }
        return SMSTemplates.builtIn.merging(overrides: parsed)
    }

    static func validateEmailSections(_ doc: [String: JSONValue]) throws(AuthError) {
        if let email = doc["signIn"]?["email"] {
            guard let object = email.objectValue else { throw invalid("signIn.email must be an object") }
            for key in ["enabled", "passwordRequired"] {
                if let value = object[key], value.boolValue == nil { throw invalid("signIn.email.\(key) must be a boolean") }
            }
        }
        if let value = doc["signIn"]?["anonymous"]?["enabled"], value.boolValue == nil {
            throw invalid("signIn.anonymous.enabled must be a boolean")
        }
        if let value = doc["emailPrivacyConfig"]?["enableImprovedEmailPrivacy"], value.boolValue == nil {
            throw invalid("emailPrivacyConfig.enableImprovedEmailPrivacy must be a boolean")
        }
        guard let flint = doc["flint"] else { return }
        guard flint.objectValue != nil else { throw invalid("flint must be an object") }
        if let apple = flint["appLinks"]?["apple"] {
            guard let team = apple["teamId"]?.stringValue, team.count == 10, team.allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber) })
            else { throw invalid("flint.appLinks.apple.teamId must be a 10-character Apple team ID") }
            guard let bundles = apple["bundleIds"]?.arrayValue, !bundles.isEmpty,
                bundles.allSatisfy({ $0.stringValue.map(isReverseDNS) ?? false })
            else { throw invalid("flint.appLinks.apple.bundleIds must be a non-empty list of bundle IDs") }
        }
        if let android = flint["appLinks"]?["android"] {
            guard let apps = android.arrayValue else { throw invalid("flint.appLinks.android must be a list") }
            for app in apps {
                guard let name = app["packageName"]?.stringValue, isReverseDNS(name) else {
                    throw invalid("flint.appLinks.android[].packageName must be a package name")
                }
                guard let prints = app["sha256CertFingerprints"]?.arrayValue, !prints.isEmpty,
                    prints.allSatisfy({ $0.stringValue.map(isFingerprint) ?? false })
                else { throw invalid("flint.appLinks.android[].sha256CertFingerprints must list SHA-256 fingerprints (AA:BB:...)") }
            }
        }
        if let templates = flint["emailTemplates"] {
            _ = try EmailTemplates.parseOverrides(templates)
        }
        if let texts = flint["smsTemplates"] {
            _ = try SMSTemplates.parseOverrides(texts)
        }
        if let domains = flint["linkDomains"] {
            guard let list = domains.arrayValue, list.allSatisfy({ $0.stringValue.map(isDomain) ?? false }) else {
                throw invalid("flint.linkDomains must be a list of host names")
            }
        }
    }

    private static func isReverseDNS(_ s: String) -> Bool {
        let parts = s.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count >= 2 && s.count <= 155
            && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") } }
    }

    private static func isFingerprint(_ s: String) -> Bool {
        let parts = s.split(separator: ":", omittingEmptySubsequences: false)
        return parts.count == 32 && parts.allSatisfy { $0.count == 2 && $0.allSatisfy(\.isHexDigit) }
    }
}

extension ProjectConfig {
    /// Whether anonymous accounts may be created by clients (`signIn.anonymous.enabled`, default off).
    package var anonymousSignInEnabled: Bool {
        document["signIn"]?["anonymous"]?["enabled"]?.boolValue ?? false
    }
}
