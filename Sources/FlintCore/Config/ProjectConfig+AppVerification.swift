/// `signIn.phoneNumber.appVerification` (Flint extension): whether SMS codes need an app proof.
extension ProjectConfig {
    /// The app-verification policy of phone sign-in and SMS second factors.
    package enum AppVerificationMode: String, Sendable, Equatable, CaseIterable {
        /// Every code sent to a real number needs a proof: a `verifyClient` receipt with its pushed secret, or a
        /// token from the web challenge. Fictional test numbers never need one.
        case enforce = "ENFORCE"
        /// No proof is asked for (what the Firebase emulator does).
        case off = "OFF"
    }

    /// The configured policy, or `nil` when the document sets none (the server then picks by mode: `OFF` in dev
    /// mode, `ENFORCE` in production).
    package var appVerification: AppVerificationMode? {
        document["signIn"]?["phoneNumber"]?["appVerification"]?.stringValue.flatMap(AppVerificationMode.init(rawValue:))
    }

    static func validateAppVerification(_ doc: [String: JSONValue]) throws(AuthError) {
        guard let value = doc["signIn"]?["phoneNumber"]?["appVerification"] else { return }
        guard value.stringValue.flatMap(AppVerificationMode.init(rawValue:)) != nil else {
            throw invalid("signIn.phoneNumber.appVerification must be one of \(AppVerificationMode.allCases.map(\.rawValue).joined(separator: ", "))")
        }
    }
}
