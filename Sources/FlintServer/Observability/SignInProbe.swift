import Synchronization

/// What a sign-in handler tells ``MetricsMiddleware`` beyond its status: that its answer is a second-factor
/// challenge rather than tokens. Bound for the handler's task by the middleware on sign-in routes only; the gate
/// marks it (``SignInGate/answer(_:provider:linking:now:)``).
final class SignInProbe: Sendable {
    /// The probe of the request being handled, if it is a sign-in.
    @TaskLocal static var current: SignInProbe?

    private let challenged = Atomic<Bool>(false)

    /// Records that the answer is a second-factor challenge (or a required enrolment).
    static func secondFactorRequired() {
        current?.challenged.store(true, ordering: .relaxed)
    }

    /// The `outcome` label of a successful answer.
    func outcome(status: Int) -> String {
        guard (200..<300).contains(status) else { return "HTTP_\(status)" }
        return challenged.load(ordering: .relaxed) ? "second_factor_required" : "success"
    }
}
