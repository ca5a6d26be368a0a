/// Flint's second-factor enforcement per first factor (`flint.mfaFirstFactors`): Identity Platform's `mfa.state` applies
/// to every sign-in alike; this map gives sign-ins by chosen providers their own state while MFA is on. Keys are sign-in
/// providers as ID tokens name them (`password`, which covers email links as Firebase's tokens do, `google.com`,
/// `oidc.…`, `passkey`…), values `DISABLED` (never asked for a second factor, enrolled or not), `ENABLED` (enrolled
/// users are asked) or `MANDATORY` (enrolled users are asked, the others must enrol one first). A provider not listed
/// follows `mfa.state`; with `mfa.state` `DISABLED` the map does nothing.
extension ProjectConfig {
    /// The providers with a state of their own.
    package var mfaFirstFactorStates: [String: MFAState] {
        (document["flint"]?["mfaFirstFactors"]?.objectValue ?? [:]).compactMapValues { $0.stringValue.flatMap(MFAState.init(rawValue:)) }
    }

    /// The MFA state a sign-in whose first factor is `provider` meets: the provider's own while MFA is on, else
    /// `mfa.state`.
    package func mfaState(forFirstFactor provider: String) -> MFAState {
        let state = mfaState
        guard state != .disabled else { return .disabled }
        return mfaFirstFactorStates[provider] ?? state
    }

    /// Checks `flint.mfaFirstFactors`: a map of provider IDs to MFA states. Custom tokens are never asked (the
    /// developer's backend vouches for them), so `custom` cannot be listed.
    static func validateMFAFirstFactors(_ doc: [String: JSONValue]) throws(AuthError) {
        guard let value = doc["flint"]?["mfaFirstFactors"] else { return }
        guard let map = value.objectValue else { throw invalid("flint.mfaFirstFactors must be a map of sign-in providers to MFA states") }
        let states = MFAState.allCases.map(\.rawValue).joined(separator: ", ")
        for (provider, state) in map.sorted(by: { $0.key < $1.key }) {
            guard Self.isProviderName(provider), provider != "custom" else {
                throw invalid("flint.mfaFirstFactors has an invalid sign-in provider \"\(provider)\"")
            }
            guard state.stringValue.flatMap(MFAState.init(rawValue:)) != nil else {
                throw invalid("flint.mfaFirstFactors.\(provider) must be one of \(states)")
            }
        }
    }

    /// A sign-in provider as ID tokens name it: letters, digits, dots, hyphens and underscores, at most 64.
    private static func isProviderName(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 64 && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }
    }
}
