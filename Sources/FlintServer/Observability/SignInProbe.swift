import Synchronization

/// What a sign-in handler tells ``MetricsMiddleware`` beyond its status: that its answer is a second-factor
/// challenge rather than tokens, and, for the console dashboard, that it created the account or was an anonymous
/// sign-up. Bound for the handler's task by the middleware on sign-in routes only; the gate marks it
/// (``SignInGate/answer(_:provider:linking:developerClaims:now:)``), after the transaction.
final class SignInProbe: Sendable {
    /// The probe of the request being handled, if it is a sign-in.
    @TaskLocal static var current: SignInProbe?

    private let challenged = Atomic<Bool>(false)
    private let created = Atomic<Bool>(false)
    private let anonymous = Atomic<Bool>(false)

    /// Records that the answer is a second-factor challenge (or a required enrolment).
    static func secondFactorRequired() {
        current?.challenged.store(true, ordering: .relaxed)
    }

    /// Records what the answer's sign-in was: whether it created the account, and its provider.
    static func answered(isNew: Bool, provider: String) {
        guard let current else { return }
        current.created.store(isNew, ordering: .relaxed)
        current.anonymous.store(provider == "anonymous", ordering: .relaxed)
    }

    /// Whether the answered sign-in created its account.
    var createdAccount: Bool { created.load(ordering: .relaxed) }

    /// The method the dashboard counts the sign-in under: the endpoint's (``Endpoint/signIn``), except an anonymous
    /// sign-up, which counts as `anonymous` rather than `signUp`.
    func dashboardMethod(_ method: String) -> String { anonymous.load(ordering: .relaxed) ? "anonymous" : method }

    /// The `outcome` label of a successful answer.
    func outcome(status: Int) -> String {
        guard (200..<300).contains(status) else { return "HTTP_\(status)" }
        return challenged.load(ordering: .relaxed) ? "second_factor_required" : "success"
    }
}
