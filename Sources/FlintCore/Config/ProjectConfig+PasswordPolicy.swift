/// `passwordPolicyConfig` (the password policy, see ``PasswordPolicy``) and `mobileLinksConfig` (which domain
/// mobile action links use), as the Admin SDKs write them.
extension ProjectConfig {
    /// The project's password policy; `nil` when none is set (only Firebase's 6-character rule applies).
    package var passwordPolicy: PasswordPolicy? {
        guard let config = document["passwordPolicyConfig"]?.objectValue, let state = config["passwordPolicyEnforcementState"]?.stringValue
        else { return nil }
        var policy = PasswordPolicy(enforced: state == "ENFORCE", forceUpgradeOnSignin: config["forceUpgradeOnSignin"]?.boolValue ?? false)
        let options = config["passwordPolicyVersions"]?.arrayValue?.first?["customStrengthOptions"]
        if case .number(let n)? = options?["minPasswordLength"] { policy.minLength = Int(n) }
        if case .number(let n)? = options?["maxPasswordLength"] { policy.maxLength = Int(n) }
        for (name, flag) in PasswordPolicy.characterClassOptions { policy[keyPath: flag] = options?[name]?.boolValue ?? false }
        return policy
    }

    /// The policy new passwords must meet: the project's when it is enforced, else `nil`.
    package var enforcedPasswordPolicy: PasswordPolicy? {
        passwordPolicy.flatMap { $0.enforced ? $0 : nil }
    }

    /// `mobileLinksConfig.domain`: `HOSTING_DOMAIN` or `FIREBASE_DYNAMIC_LINK_DOMAIN`, `nil` when unset.
    package var mobileLinksDomain: String? {
        document["mobileLinksConfig"]?["domain"]?.stringValue
    }

    /// Checks `passwordPolicyConfig` as Firebase does: a known enforcement state, a boolean `forceUpgradeOnSignin`,
    /// exactly one version whose `minPasswordLength` is 6 to 30 and `maxPasswordLength` at most 4096 and not below
    /// it. Lengths given as strings (proto3 JSON) are stored as numbers.
    static func normalizedPasswordPolicyConfig(_ doc: [String: JSONValue]) throws(AuthError) -> JSONValue? {
        guard let config = doc["passwordPolicyConfig"] else { return nil }
        guard var object = config.objectValue else { throw invalid("passwordPolicyConfig must be an object") }
        let known = ["passwordPolicyEnforcementState", "forceUpgradeOnSignin", "passwordPolicyVersions"]
        if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
            throw invalid("passwordPolicyConfig has an unknown field: \(unknown)")
        }
        if let state = object["passwordPolicyEnforcementState"], !["OFF", "ENFORCE"].contains(state.stringValue ?? "") {
            throw invalid("passwordPolicyConfig.passwordPolicyEnforcementState must be OFF or ENFORCE")
        }
        if let force = object["forceUpgradeOnSignin"], force.boolValue == nil {
            throw invalid("passwordPolicyConfig.forceUpgradeOnSignin must be a boolean")
        }
        if let versions = object["passwordPolicyVersions"] {
            guard let list = versions.arrayValue, list.count == 1, let version = list[0].objectValue else {
                throw invalid("passwordPolicyConfig.passwordPolicyVersions must hold exactly one version")
            }
            object["passwordPolicyVersions"] = .array([.object(try normalizedPolicyVersion(version))])
        }
        return .object(object)
    }

    private static func normalizedPolicyVersion(_ version: [String: JSONValue]) throws(AuthError) -> [String: JSONValue] {
        let prefix = "passwordPolicyConfig.passwordPolicyVersions[0]"
        guard version.keys.allSatisfy({ $0 == "customStrengthOptions" }) else { throw invalid("\(prefix) takes only customStrengthOptions") }
        guard let options = (version["customStrengthOptions"] ?? .object([:])).objectValue else {
            throw invalid("\(prefix).customStrengthOptions must be an object")
        }
        var out: [String: JSONValue] = [:]
        for (key, value) in options {
            if PasswordPolicy.characterClassOptions.contains(where: { $0.name == key }) {
                guard value.boolValue != nil else { throw invalid("\(prefix).customStrengthOptions.\(key) must be a boolean") }
                out[key] = value
            } else if key == "minPasswordLength" || key == "maxPasswordLength" {
                out[key] = .number(Double(try length(value, named: "\(prefix).customStrengthOptions.\(key)")))
            } else {
                throw invalid("\(prefix).customStrengthOptions has an unknown field: \(key)")
            }
        }
        let minimum = out["minPasswordLength"].map(integer) ?? PasswordPolicy.minimumLength
        guard (PasswordPolicy.minimumLength...PasswordPolicy.longestMinimum).contains(minimum) else {
            throw invalid("minPasswordLength must be between \(PasswordPolicy.minimumLength) and \(PasswordPolicy.longestMinimum)")
        }
        if let maximum = out["maxPasswordLength"].map(integer) {
            guard maximum <= PasswordPolicy.maximumLength else {
                throw invalid("maxPasswordLength must be at most \(PasswordPolicy.maximumLength)")
            }
            guard maximum >= minimum else { throw invalid("maxPasswordLength must not be less than minPasswordLength") }
        }
        return ["customStrengthOptions": .object(out)]
    }

    private static func length(_ value: JSONValue, named name: String) throws(AuthError) -> Int {
        switch value {
        case .number(let n) where n.rounded() == n && abs(n) < 1e9: return Int(n)
        case .string(let s) where Int(s) != nil: return Int(s) ?? 0
        default: throw invalid("\(name) must be an integer")
        }
    }

    private static func integer(_ value: JSONValue) -> Int {
        if case .number(let n) = value { return Int(n) }
        return 0
    }

    /// Checks `mobileLinksConfig`: only `domain`, `HOSTING_DOMAIN` or `FIREBASE_DYNAMIC_LINK_DOMAIN`.
    static func validateMobileLinksConfig(_ doc: [String: JSONValue]) throws(AuthError) {
        guard let config = doc["mobileLinksConfig"] else { return }
        guard let object = config.objectValue, object.keys.allSatisfy({ $0 == "domain" }) else {
            throw invalid("mobileLinksConfig takes only domain")
        }
        if let domain = object["domain"], !["HOSTING_DOMAIN", "FIREBASE_DYNAMIC_LINK_DOMAIN"].contains(domain.stringValue ?? "") {
            throw invalid("mobileLinksConfig.domain must be HOSTING_DOMAIN or FIREBASE_DYNAMIC_LINK_DOMAIN")
        }
    }
}
