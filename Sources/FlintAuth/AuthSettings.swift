/// Settings of an `Auth` instance, as FirebaseAuth's `AuthSettings`.
public final class AuthSettings: Sendable {
    private let appVerificationDisabled = Locked(false)

    init() {}

    /// Whether phone sign-in skips app verification: `sendVerificationCode` then carries no app proof, which Flint
    /// accepts in dev mode and for test numbers. `useEmulator(withHost:port:)` turns it on. Default `false`.
    ///
    /// FlintAuth does not produce app proofs yet, so for now no proof is sent either way; a server that requires
    /// one answers `missingAppCredential`.
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
