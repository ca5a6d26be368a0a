/// What a stats counter counts (``StatCount``). Stored as its raw text in `stats.metric`; each counts under a bounded
/// label (a sign-in method, an ISO region, a Firebase error code).
public struct StatMetric: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The stored text.
    public let rawValue: String

    /// A metric from its stored text.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A sign-in answered with tokens, by method (`phone`, `password`, `emailLink`, `signUp`, `anonymous`, `custom`,
    /// `secondFactor`).
    public static let signIn = StatMetric(rawValue: "signIn")
    /// An account created by a sign-in or sign-up, by method.
    public static let newUser = StatMetric(rawValue: "newUser")
    /// An SMS code handed to the provider (or the dev outbox), by region.
    public static let smsSent = StatMetric(rawValue: "smsSent")
    /// An SMS code not sent (region policy, limits, budget, provider refusal), by region.
    public static let smsRefused = StatMetric(rawValue: "smsRefused")
    /// An email handed to the provider (or the dev outbox), by kind (`PASSWORD_RESET`, `VERIFY_EMAIL`, `EMAIL_SIGNIN`…).
    public static let emailSent = StatMetric(rawValue: "emailSent")
    /// An email given up on for good, by kind.
    public static let emailFailed = StatMetric(rawValue: "emailFailed")
    /// An error answer of the API, by Firebase code.
    public static let error = StatMetric(rawValue: "error")

    public var description: String { rawValue }
}
