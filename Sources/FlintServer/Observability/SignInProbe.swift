import Synchronization

/// The sign-in endpoints the metrics count, by route template, with their `method` label. The v3 aliases count as
/// their v1 endpoint; the operator's account creation (`v1/projects/{project}/accounts`) is no sign-in.
enum SignInRoutes {
    private static let methods: [String: String] = {
        let v1 = IdentityToolkitPath.v1
        let v3 = IdentityToolkitPath.v3
        return [
            "\(v1)/accounts:signInWithPhoneNumber": "phone", "\(v3)/verifyPhoneNumber": "phone",
            "\(v1)/accounts:signInWithPassword": "password", "\(v3)/verifyPassword": "password",
            "\(v1)/accounts:signInWithEmailLink": "emailLink", "\(v3)/emailLinkSignin": "emailLink",
            "\(v1)/accounts:signUp": "signUp", "\(v3)/signupNewUser": "signUp",
            "\(IdentityToolkitPath.v2)/accounts/mfaSignIn:finalize": "secondFactor",
        ]
    }()

    /// The `method` label of a sign-in endpoint's template, `nil` for any other route.
    static func method(of endpointPath: String?) -> String? {
        guard let endpointPath else { return nil }
        return methods[endpointPath]
    }
}

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
