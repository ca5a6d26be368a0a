/// Settings of an `Auth` instance, as FirebaseAuth's `AuthSettings`.
public final class AuthSettings: Sendable {
    private let appVerificationDisabled = Locked(false)

    /// Settings with app verification on.
    public init() {}

    /// An independent copy.
    func copy() -> AuthSettings {
        let copy = AuthSettings()
        copy.isAppVerificationDisabledForTesting = isAppVerificationDisabledForTesting
        return copy
    }

    /// Whether phone sign-in skips app verification: `sendVerificationCode` (and the SMS second-factor starts) then
    /// carry no app proof, which a server enforcing app verification accepts only for fictional test numbers
    /// (`missingAppCredential` otherwise). `useEmulator(withHost:port:)` turns it on. Default `false`: the SDK then
    /// proves the app by silent push or the web challenge (see `PhoneAuthProvider.verifyPhoneNumber`).
    public var isAppVerificationDisabledForTesting: Bool {
        get { appVerificationDisabled.current }
        set { appVerificationDisabled.withLock { $0 = newValue } }
    }

    /// The same as `isAppVerificationDisabledForTesting`.
    public var appVerificationDisabledForTesting: Bool {
        get { isAppVerificationDisabledForTesting }
        set { isAppVerificationDisabledForTesting = newValue }
    }
}
