/// The one rule that decides what a proven first factor leads to — tokens, a second-factor challenge, or a refusal —
/// for every way of signing in (phone, email link, password, sign-up, anonymous upgrade, and any flow added later).
package enum FirstFactorPolicy {
    /// What a proven first factor leads to.
    package enum Decision: Sendable, Equatable {
        /// The session gets tokens.
        case tokens
        /// No tokens: a pending credential and the enrolled factors' hints instead. With `enrollmentRequired` (a
        /// MANDATORY project, an account without factors) the credential serves to enrol the first factor.
        case challenge(enrollmentRequired: Bool)
        /// The sign-in is refused with this error.
        case refuse(AuthError)
    }

    /// What the deciding needs to know about a sign-in.
    package struct Attempt: Sendable, Equatable {
        /// `firebase.sign_in_provider` of the session that would result: `phone`, `password`, `anonymous`, ...
        package var provider: String
        /// Whether the account has second factors (as the project sees them: none while MFA is disabled).
        package var hasEnrollments: Bool
        /// Whether a signed-in session adds this credential to its account (linking, or an anonymous upgrade)
        /// rather than starting a new sign-in.
        package var linking: Bool
        /// Whether the flow makes a phone number a first factor of the account (phone sign-in, or linking a number).
        package var phoneBecomesFirstFactor: Bool

        /// Describes an attempt.
        package init(provider: String, hasEnrollments: Bool, linking: Bool = false, phoneBecomesFirstFactor: Bool = false) {
            self.provider = provider
            self.hasEnrollments = hasEnrollments
            self.linking = linking
            self.phoneBecomesFirstFactor = phoneBecomesFirstFactor
        }
    }

    /// Why a phone number is refused as the first factor of a project that requires second factors: such a session
    /// could never enrol one (a phone first factor cannot enrol), so it could never get tokens.
    package static let phoneFirstFactorInMandatoryProject = AuthError.unsupportedFirstFactor.with(
        detail: "Second factors are mandatory in this project, and an account signed in with a phone number cannot enrol one.")

    /// Decides for `attempt` in a project whose MFA state is `state`, and whose state for the attempt's first factor
    /// (``ProjectConfig/mfaState(forFirstFactor:)``) is `firstFactorState` (`state` when `nil`).
    ///
    /// - A phone number never becomes the first factor of an account with second factors (`UNSUPPORTED_FIRST_FACTOR`).
    /// - An account with second factors is challenged, unless a session that already holds tokens for it is linking,
    ///   or the first factor's own state is `DISABLED`.
    /// - With `MANDATORY` for the first factor an account without factors gets no tokens: it is challenged to enrol one, except
    ///   anonymous accounts (which cannot enrol) and phone first factors (refused: they cannot enrol either).
    /// - A custom token (`custom`) gets tokens: the developer's backend, holding a service-account key, vouches for
    ///   the sign-in, as in Firebase (the SDKs' custom-token sign-in cannot answer a challenge, and such a session
    ///   cannot enrol a factor).
    package static func decide(_ attempt: Attempt, state: ProjectConfig.MFAState, firstFactorState: ProjectConfig.MFAState? = nil) -> Decision {
        guard state != .disabled, attempt.provider != "custom" else { return .tokens }
        if attempt.phoneBecomesFirstFactor && attempt.hasEnrollments { return .refuse(.unsupportedFirstFactor) }
        let state = firstFactorState ?? state
        if attempt.hasEnrollments { return attempt.linking || state == .disabled ? .tokens : .challenge(enrollmentRequired: false) }
        guard state == .mandatory, attempt.provider != "anonymous" else { return .tokens }
        if attempt.provider == "phone" { return .refuse(phoneFirstFactorInMandatoryProject) }
        return .challenge(enrollmentRequired: true)
    }
}
