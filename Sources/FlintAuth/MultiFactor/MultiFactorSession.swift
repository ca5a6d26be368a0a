/// What ties a second-factor step to its first factor: for enrolment the signed-in user's ID token (from
/// `MultiFactor.session()`), for sign-in the pending credential of a `secondFactorRequired` error (from
/// `MultiFactorResolver.session`). Opaque, as in FirebaseAuth.
public final class MultiFactorSession: Sendable {
    /// The ID token of the enrolling user, as it was when the session was made.
    let idToken: String?
    /// The pending credential of a first-factor sign-in.
    let pendingCredential: String?
    /// The user an enrolment session belongs to.
    let user: User?
    let backend: Backend

    init(idToken: String?, pendingCredential: String?, user: User?, backend: Backend) {
        self.idToken = idToken
        self.pendingCredential = pendingCredential
        self.user = user
        self.backend = backend
    }

    /// Whether this session enrols a factor (a signed-in user's, or a sign-in that must enrol one first).
    var enrollsFactor: Bool { idToken != nil }
}
