/// The admin v2 `mfa` section (Identity Platform's `MultiFactorAuthConfig`):
/// `{"state": "ENABLED", "enabledProviders": ["PHONE_SMS"], "providerConfigs": [{"state": "ENABLED",
/// "totpProviderConfig": {"adjacentIntervals": 5}}]}`.
extension ProjectConfig {
    /// Whether multi-factor authentication is offered (`mfa.state`).
    package enum MFAState: String, Sendable, Equatable, CaseIterable {
        /// Second factors can be neither enrolled nor asked for.
        case disabled = "DISABLED"
        /// Users may enroll second factors.
        case enabled = "ENABLED"
        /// Identity Platform's "users must enroll"; Flint treats it like `enabled` when checking sign-ins.
        case mandatory = "MANDATORY"
    }

    /// The only `mfa.enabledProviders` value Identity Platform defines.
    static let smsProvider = "PHONE_SMS"
    /// `mfa.providerConfigs[].totpProviderConfig.adjacentIntervals` when absent.
    package static let defaultTOTPAdjacentIntervals = 5
    /// The allowed range of `adjacentIntervals` (Identity Platform's).
    package static let totpAdjacentIntervalsRange = 0...10

    /// `mfa.state`; `.disabled` when absent.
    package var mfaState: MFAState {
        document["mfa"]?["state"]?.stringValue.flatMap(MFAState.init(rawValue:)) ?? .disabled
    }

    /// Whether SMS second factors may be enrolled and used: MFA is on and `mfa.enabledProviders` has `PHONE_SMS`.
    package var smsSecondFactorEnabled: Bool {
        guard mfaState != .disabled else { return false }
        return document["mfa"]?["enabledProviders"]?.arrayValue?.contains(.string(Self.smsProvider)) ?? false
    }

    /// Whether TOTP second factors may be enrolled and used: MFA is on and a provider config with state `ENABLED`
    /// has a `totpProviderConfig`.
    package var totpSecondFactorEnabled: Bool {
        guard mfaState != .disabled else { return false }
        return enabledTOTPProviderConfig != nil
    }

    /// How many steps either side of now a TOTP code may come from, to absorb clock skew (default 5).
    package var totpAdjacentIntervals: Int {
        guard case .number(let n)? = enabledTOTPProviderConfig?["adjacentIntervals"], Self.isInteger(n, in: Self.totpAdjacentIntervalsRange)
        else { return Self.defaultTOTPAdjacentIntervals }
        return Int(n)
    }

    private var enabledTOTPProviderConfig: JSONValue? {
        let configs = document["mfa"]?["providerConfigs"]?.arrayValue ?? []
        return configs.first { $0["state"]?.stringValue == MFAState.enabled.rawValue && $0["totpProviderConfig"] != nil }?[
            "totpProviderConfig"]
    }

    static func validateMFASection(_ doc: [String: JSONValue]) throws(AuthError) {
        guard let mfa = doc["mfa"] else { return }
        guard mfa.objectValue != nil else { throw invalid("mfa must be an object") }
        let states = MFAState.allCases.map(\.rawValue).joined(separator: ", ")
        if let state = mfa["state"], state.stringValue.flatMap(MFAState.init(rawValue:)) == nil {
            throw invalid("mfa.state must be one of \(states)")
        }
        if let providers = mfa["enabledProviders"] {
            guard let list = providers.arrayValue, list.allSatisfy({ $0 == .string(smsProvider) }) else {
                throw invalid("mfa.enabledProviders must be a list of providers (\(smsProvider))")
            }
        }
        guard let configs = mfa["providerConfigs"] else { return }
        guard let list = configs.arrayValue else { throw invalid("mfa.providerConfigs must be a list") }
        for (i, config) in list.enumerated() {
            let path = "mfa.providerConfigs[\(i)]"
            guard config.objectValue != nil else { throw invalid("\(path) must be an object") }
            if let state = config["state"], state.stringValue.flatMap(MFAState.init(rawValue:)) == nil {
                throw invalid("\(path).state must be one of \(states)")
            }
            guard let totp = config["totpProviderConfig"] else { continue }
            guard totp.objectValue != nil else { throw invalid("\(path).totpProviderConfig must be an object") }
            if let intervals = totp["adjacentIntervals"] {
                let range = totpAdjacentIntervalsRange
                guard case .number(let n) = intervals, isInteger(n, in: range) else {
                    throw invalid("\(path).totpProviderConfig.adjacentIntervals must be an integer from \(range.lowerBound) to \(range.upperBound)")
                }
            }
        }
    }

    private static func isInteger(_ n: Double, in range: ClosedRange<Int>) -> Bool {
        n.rounded() == n && n >= Double(range.lowerBound) && n <= Double(range.upperBound)
    }
}
