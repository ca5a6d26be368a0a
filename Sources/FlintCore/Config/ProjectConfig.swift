/// A project's settings, in Firebase's admin v2 `Config` schema.
///
/// The whole document is kept as JSON so sections this version does not know survive a round trip; the typed
/// accessors read the parts Flint acts on.
package struct ProjectConfig: Sendable, Equatable {
    /// The stored document (`signIn`, `authorizedDomains`, ...).
    package private(set) var document: [String: JSONValue]

    /// A tenant's `enableEmailLinkSignin` when this config is a tenant's settings (``TenantConfig/settings(over:)``),
    /// which the project document's `signIn.email` cannot hold apart from passwords; `nil` for a project's own config.
    package internal(set) var tenantEmailLinkSignIn: Bool?

    /// At most this many fictional test numbers, as Firebase allows.
    package static let maxTestPhoneNumbers = 10

    /// Paths an `updateMask` may name.
    package static let updatablePaths: [String] = [
        "signIn", "signIn.phoneNumber", "signIn.phoneNumber.enabled", "signIn.phoneNumber.testPhoneNumbers", "signIn.phoneNumber.appVerification",
        "signIn.email",
        "signIn.email.enabled", "signIn.email.passwordRequired", "signIn.anonymous", "signIn.anonymous.enabled", "authorizedDomains",
        "emailPrivacyConfig",
        "emailPrivacyConfig.enableImprovedEmailPrivacy", "flint", "flint.appLinks", "flint.linkDomains", "flint.emailTemplates",
        "flint.smsTemplates", "flint.defaultPhoneRegion", "flint.mfaFirstFactors",
        "mfa", "mfa.state", "mfa.enabledProviders", "mfa.providerConfigs", "smsRegionConfig",
        "smsRegionConfig.allowByDefault", "smsRegionConfig.allowByDefault.disallowedRegions", "smsRegionConfig.allowlistOnly",
        "smsRegionConfig.allowlistOnly.allowedRegions",
        "flint.smsLimits", "flint.smsLimits.perNumberPerHour", "flint.smsLimits.perNumberPerDay", "flint.smsLimits.perIPPerHour",
        "flint.smsLimits.perIPPerDay", "flint.smsLimits.perCountryPerHour",
        "flint.smsLimits.dailyBudget",
        "passwordPolicyConfig", "passwordPolicyConfig.passwordPolicyEnforcementState", "passwordPolicyConfig.forceUpgradeOnSignin",
        "passwordPolicyConfig.passwordPolicyVersions", "mobileLinksConfig", "mobileLinksConfig.domain",
        "blockingFunctions", "blockingFunctions.triggers", "blockingFunctions.forwardInboundCredentials",
        "blockingFunctions.forwardInboundCredentials.idToken", "blockingFunctions.forwardInboundCredentials.accessToken",
        "blockingFunctions.forwardInboundCredentials.refreshToken",
        "flint.breachedPasswords", "flint.accountLockout",
        "flint.sessions", "flint.sessions.idleTimeout", "flint.sessions.absoluteLifetime",
    ]

    /// The configuration of a new project: phone and email (password and link) sign-in on, no test numbers,
    /// `localhost` authorized.
    package static let defaults = ProjectConfig(
        unchecked: [
            "signIn": .object([
                "phoneNumber": .object(["enabled": .bool(true), "testPhoneNumbers": .object([:])]),
                "email": .object(["enabled": .bool(true), "passwordRequired": .bool(false)]),
            ]),
            "authorizedDomains": .array([.string("localhost")]),
        ]
    )

    private init(unchecked document: [String: JSONValue]) {
        self.document = document
    }

    /// Validates and normalizes a document (test numbers to E.164, codes checked, domains lower-cased).
    /// - Throws: ``AuthError`` `INVALID_CONFIG` naming what is wrong.
    package init(document: [String: JSONValue]) throws(AuthError) {
        var doc = document
        doc["name"] = nil
        var phone = doc["signIn"]?["phoneNumber"]?.objectValue ?? [:]
        if let enabled = phone["enabled"] {
            guard case .bool = enabled else { throw Self.invalid("signIn.phoneNumber.enabled must be a boolean") }
        }
        if let tests = phone["testPhoneNumbers"] {
            guard let map = tests.objectValue else { throw Self.invalid("signIn.phoneNumber.testPhoneNumbers must be a map") }
            guard map.count <= Self.maxTestPhoneNumbers else {
                throw Self.invalid("at most \(Self.maxTestPhoneNumbers) test phone numbers are allowed, got \(map.count)")
            }
            var normalized: [String: JSONValue] = [:]
            for (number, code) in map {
                let parsed: PhoneNumber
                do { parsed = try PhoneNumber(parsing: number) } catch {
                    throw Self.invalid("test phone number \(number) is not a valid E.164 number")
                }
                var text = code.stringValue ?? ""
                if case .number(let n) = code, n >= 100_000, n < 1_000_000, n.rounded() == n { text = String(Int(n)) }
                guard VerificationCode.isWellFormed(text) else {
                    throw Self.invalid("the code for test phone number \(number) must be 6 digits")
                }
                guard normalized[parsed.e164] == nil else { throw Self.invalid("test phone number \(number) is listed twice") }
                normalized[parsed.e164] = .string(text)
            }
            phone["testPhoneNumbers"] = .object(normalized)
        }
        // YAML 1.1 (the config file's dialect) reads a bare `OFF` as false.
        if case .bool(false)? = phone["appVerification"] { phone["appVerification"] = .string(AppVerificationMode.off.rawValue) }
        if !phone.isEmpty {
            var signIn = doc["signIn"]?.objectValue ?? [:]
            signIn["phoneNumber"] = .object(phone)
            doc["signIn"] = .object(signIn)
        }
        if let domains = doc["authorizedDomains"] {
            guard case .array(let list) = domains else { throw Self.invalid("authorizedDomains must be a list of strings") }
            var out: [JSONValue] = []
            for item in list {
                guard let d = item.stringValue, Self.isDomain(d) else { throw Self.invalid("authorizedDomains has an invalid domain") }
                out.append(.string(d.lowercased()))
            }
            doc["authorizedDomains"] = .array(out)
        }
        try Self.validateEmailSections(doc)
        try Self.validateMFASection(doc)
        try Self.validateMFAFirstFactors(doc)
        try Self.validateAppVerification(doc)
        if let regions = try Self.normalizedSMSRegionConfig(doc) { doc["smsRegionConfig"] = regions }
        try Self.validateSMSLimits(doc)
        doc = try Self.normalizedDefaultPhoneRegion(doc)
        if let policy = try Self.normalizedPasswordPolicyConfig(doc) { doc["passwordPolicyConfig"] = policy }
        try Self.validateMobileLinksConfig(doc)
        try Self.validateIdentityProviders(doc)
        try Self.validateBlockingFunctions(doc)
        try Self.validateBreachedPasswords(doc)
        try Self.validateAccountLockout(doc)
        try Self.validateSessions(doc)
        self.document = doc
    }

    /// Whether phone-number sign-in is enabled.
    package var phoneSignInEnabled: Bool {
        if case .bool(let b)? = document["signIn"]?["phoneNumber"]?["enabled"] { return b }
        return false
    }

    /// Fictional numbers (E.164) and their fixed codes.
    package var testPhoneNumbers: [String: String] {
        (document["signIn"]?["phoneNumber"]?["testPhoneNumbers"]?.objectValue ?? [:]).compactMapValues(\.stringValue)
    }

    /// Domains that continue URLs may point at.
    package var authorizedDomains: [String] {
        guard case .array(let list)? = document["authorizedDomains"] else { return [] }
        return list.compactMap(\.stringValue)
    }

    /// The document as the admin API answers it, with its resource `name`.
    package func resource(projectID: String) -> [String: JSONValue] {
        var out = document
        out["name"] = .string("projects/\(projectID)/config")
        return Self.showingSMSLimits(out, smsLimits)
    }

    /// Applies a PATCH: copies each masked path from `patch` into this config (a path absent from `patch`
    /// is cleared), then validates. Without a mask, every known leaf present in `patch` is taken.
    /// - Throws: ``AuthError`` for unknown mask paths or an invalid result.
    package func applying(patch: [String: JSONValue], updateMask: [String]?) throws(AuthError) -> ProjectConfig {
        let mask = updateMask ?? Self.updatablePaths.filter { Self.value(at: $0, in: patch) != nil && !Self.hasKnownChild($0) }
        var doc = document
        for path in mask {
            guard Self.updatablePaths.contains(path) else {
                throw AuthError.invalidArgument("Invalid update mask path: \(path)")
            }
            let value = Self.value(at: path, in: patch)
            Self.set(value, at: path, in: &doc)
            // Proto oneofs: setting one member clears the others (as the Node Admin SDK switches SMS region modes
            // by naming only the new mode's path).
            if value != nil, let others = Self.oneofSiblings.first(where: { path.hasPrefix($0.member) })?.others {
                for other in others { Self.set(nil, at: other, in: &doc) }
            }
        }
        return try ProjectConfig(document: doc)
    }

    /// Members of a oneof in the config schema (by path prefix) and the members a value for them clears.
    private static let oneofSiblings: [(member: String, others: [String])] = [
        ("smsRegionConfig.allowByDefault", ["smsRegionConfig.allowlistOnly"]),
        ("smsRegionConfig.allowlistOnly", ["smsRegionConfig.allowByDefault"]),
    ]

    private static func hasKnownChild(_ path: String) -> Bool {
        updatablePaths.contains { $0.hasPrefix(path + ".") }
    }

    /// The value at a dotted path (`mfa.state`), if any.
    static func value(at path: String, in doc: [String: JSONValue]) -> JSONValue? {
        var current: JSONValue? = .object(doc)
        for key in path.split(separator: ".") { current = current?[String(key)] }
        return current
    }

    /// Sets (or with `nil` clears) the value at a dotted path, making the objects on the way.
    static func set(_ value: JSONValue?, at path: String, in doc: inout [String: JSONValue]) {
        let keys = path.split(separator: ".").map(String.init)
        func go(_ obj: [String: JSONValue], _ i: Int) -> [String: JSONValue] {
            var obj = obj
            if i == keys.count - 1 {
                obj[keys[i]] = value
            } else {
                obj[keys[i]] = .object(go(obj[keys[i]]?.objectValue ?? [:], i + 1))
            }
            return obj
        }
        doc = go(doc, 0)
    }

    static func isDomain(_ s: String) -> Bool {
        !s.isEmpty && s.utf8.count <= 253
            && s.unicodeScalars.allSatisfy { ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || $0 == "." || $0 == "-" }
    }

    static func invalid(_ detail: String) -> AuthError {
        AuthError(code: "INVALID_CONFIG", detail: detail, rpcStatus: "INVALID_ARGUMENT")
    }
}
